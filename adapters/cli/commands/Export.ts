/**
 * `flagport export --project P [--format yaml|json|openfeature-manifest] [--environment E] [--out FILE]`:
 * the project as its declarative file (docs/guide/flags-as-code.md), or the OpenFeature CLI's flag
 * manifest. Reads the database like the other commands, or asks a running server with
 * `--url URL --key KEY` (`GET /v1/projects/P/export`, the same text). With `--out`, each non-empty
 * key list of a segment is written beside the file, one key a line, and the segment names it
 * (`keys:`, KeyListFiles.ts); without, the lists are left out and a note says so.
 */
import { existsSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { exportedKeyLists, listFileName } from "../../../src/domain/ascode/FileKeyLists.js"
import { type ExportFormat as FullFormat, exportText } from "../../../src/domain/ascode/ExportText.js"
import type { FileFormat } from "../../../src/domain/ascode/FileText.js"
import type { FileSegment, ProjectFile } from "../../../src/domain/ascode/ProjectFile.js"
import type { KeyListName } from "../../../src/domain/definitions/SegmentKeys.js"
import { type ListStore, localStore, remoteStore } from "../KeyListFiles.js"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { FlagsAsCode } from "../../../src/services/ascode/FlagsAsCode.js"
import { note } from "../Output.js"
import { callServer } from "../ServerCall.js"
import * as Storage from "../Storage.js"
import { serverOptions, serverTarget } from "../ServerTarget.js"
import { UsageError } from "../UsageError.js"
import { say, whole } from "../Progress.js"

const fromDatabase = (projectId: string, format: FullFormat, environment: string | undefined) =>
  Effect.flatMap(FlagsAsCode, (code) => code.exportText(projectId, format, environment)).pipe(Storage.withDatabase)

const fromServer = (url: string, key: string, projectId: string, format: FullFormat, environment: string | undefined) => {
  const query = new URLSearchParams({ format, ...(environment === undefined ? {} : { environment }) })
  return Effect.map(callServer(url, key, `/v1/projects/${encodeURIComponent(projectId)}/export?${query}`), (answer) => answer.text)
}

/**
 * The project file with its segments' non-empty key lists written beside `out` (`<segment>.<list>.txt`)
 * and named by `keys:`; a list file of a list now empty is removed (export wrote it before). Without
 * `out`, the file without lists, and the segments whose lists were left out.
 */
const withKeyLists = (file: ProjectFile, store: ListStore, out: string | undefined) =>
  Effect.gen(function* () {
    const left: Array<string> = []
    const segments: Array<FileSegment> = []
    for (const segment of file.segments ?? []) {
      const lists = yield* store.lists(segment.key)
      const nonEmpty = (["included", "excluded"] as const).filter((list: KeyListName) => (lists?.[list].count ?? 0) > 0)
      if (out === undefined) {
        if (nonEmpty.length > 0) left.push(segment.key)
        segments.push(segment)
        continue
      }
      for (const list of ["included", "excluded"] as const) {
        const path = join(dirname(out), listFileName(segment.key, list))
        if (nonEmpty.includes(list)) yield* store.download(segment.key, list, path)
        else if (existsSync(path)) yield* Effect.sync(() => rmSync(path))
      }
      const keys = exportedKeyLists(segment.key, nonEmpty)
      segments.push(keys === undefined ? segment : { ...segment, keys })
    }
    return { file: file.segments === undefined ? file : { ...file, segments }, left }
  })

const fileFromDatabase = (projectId: string, format: FileFormat, out: string | undefined) =>
  Effect.gen(function* () {
    const file = yield* Effect.flatMap(FlagsAsCode, (code) => code.exportFile(projectId))
    const written = yield* withKeyLists(file, yield* localStore(projectId), out)
    return { text: exportText({ file: written.file, format }), left: written.left }
  }).pipe(Storage.withDatabase)

/** The server's export as the file it is (the server's own text, its order kept: not decoded and printed again unless lists are added). */
const asProjectFile = (text: string): Effect.Effect<ProjectFile, UsageError> =>
  Effect.try({
    try: () => {
      const value: unknown = JSON.parse(text)
      const segments = typeof value === "object" && value !== null && "segments" in value ? value.segments : undefined
      if (segments !== undefined && !(Array.isArray(segments) && segments.every((s) => typeof s === "object" && s !== null && typeof s.key === "string"))) {
        throw new Error("its segments are not a list of segments with keys")
      }
      return value as ProjectFile
    },
    catch: (error) => new UsageError({ message: `the server's export is not a project file: ${error instanceof Error ? error.message : String(error)}` })
  })

/**
 * The server's export, asked first and interruptibly (a server that never answers must not hold a
 * signal back): as JSON, and in `format` too unless that is JSON. Writing the lists is `listsFromServer`.
 */
const askServer = (url: string, key: string, projectId: string, format: FileFormat) =>
  Effect.gen(function* () {
    const json = yield* fromServer(url, key, projectId, "json", undefined)
    const asked = format === "json" ? json : yield* fromServer(url, key, projectId, format, undefined)
    return { file: yield* asProjectFile(json), asked }
  })

const listsFromServer = (url: string, key: string, projectId: string, format: FileFormat, out: string | undefined, answer: { readonly file: ProjectFile; readonly asked: string }) =>
  Effect.gen(function* () {
    const written = yield* withKeyLists(answer.file, remoteStore(url, key, projectId), out)
    const listed = (written.file.segments ?? []).some((s) => s.keys !== undefined)
    return { text: listed ? exportText({ file: written.file, format }) : answer.asked, left: written.left }
  })

export const exportCommand = Command.make(
  "export",
  {
    project: Options.text("project").pipe(Options.withPseudoName("ID"), Options.withDescription("The project to export.")),
    format: Options.choice("format", ["yaml", "json", "openfeature-manifest"]).pipe(
      Options.withDescription("yaml (default) or json: the project file; openfeature-manifest: the OpenFeature CLI's flag manifest."),
      Options.withDefault("yaml" as const)
    ),
    environment: Options.text("environment").pipe(
      Options.withPseudoName("ENV"),
      Options.withDescription("openfeature-manifest: the environment whose default values the manifest gives (default: the project's first)."),
      Options.optional
    ),
    out: Options.file("out").pipe(Options.withDescription("Write to FILE instead of stdout."), Options.optional),
    ...serverOptions({
      url: "Ask the Flagport server at URL instead of reading DATABASE_URL (with a key from FLAGPORT_KEY or --key).",
      key: "An API key for --url that may read the project."
    })
  },
  (options) =>
    Effect.gen(function* () {
      yield* say(Option.match(options.out, { onNone: () => "nothing was changed (export only reads)", onSome: (file) => `${file} was not written` }))
      const server = yield* serverTarget(options.url, options.key, "reads DATABASE_URL")
      const environment = Option.getOrUndefined(options.environment)
      if (environment !== undefined && options.format !== "openfeature-manifest") {
        return yield* new UsageError({ message: "--environment is for --format openfeature-manifest (the project file has every environment)" })
      }
      const out = Option.getOrUndefined(options.out)
      const format = options.format
      if (format === "openfeature-manifest") {
        const text = Option.isSome(server)
          ? yield* fromServer(server.value.url, server.value.key, options.project, format, environment)
          : yield* fromDatabase(options.project, format, environment)
        if (out === undefined) return yield* Effect.sync(() => void process.stdout.write(text))
        return yield* whole(Effect.zipRight(Effect.sync(() => writeFileSync(out, text)), note(`wrote ${out}`)), () => `${out} was written whole`)
      }
      const listsWritten = () => (out === undefined ? "nothing was written" : `the key lists beside ${out} were written whole`)
      const exported = Option.isSome(server)
        ? yield* Effect.flatMap(askServer(server.value.url, server.value.key, options.project, format), (answer) =>
          whole(listsFromServer(server.value.url, server.value.key, options.project, format, out, answer), listsWritten))
        : yield* whole(fileFromDatabase(options.project, format, out), listsWritten)
      if (exported.left.length > 0) {
        yield* note(`note: the key lists of segment(s) ${exported.left.join(", ")} are not in this output: export with --out FILE to write them beside it`)
      }
      if (out === undefined) return yield* Effect.sync(() => void process.stdout.write(exported.text))
      yield* whole(Effect.zipRight(Effect.sync(() => writeFileSync(out, exported.text)), note(`wrote ${out}`)), () => `${out} was written whole`)
    })
).pipe(Command.withDescription("Write a project as its declarative file (YAML or JSON), or as the OpenFeature CLI's flag manifest."))
