/**
 * `flagport export --project P [--format yaml|json|openfeature-manifest] [--environment E] [--out FILE]`:
 * the project as its declarative file (docs/guide/flags-as-code.md), or the OpenFeature CLI's flag
 * manifest. Reads the database like the other commands, or asks a running server with
 * `--url URL --key KEY` (`GET /v1/projects/P/export`, the same text).
 */
import { writeFileSync } from "node:fs"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ExportFormat } from "../../../src/domain/ascode/ExportText.js"
import { FlagsAsCode } from "../../../src/services/ascode/FlagsAsCode.js"
import { note } from "../Output.js"
import { callServer } from "../ServerCall.js"
import * as Storage from "../Storage.js"
import { serverOptions, serverTarget } from "../ServerTarget.js"
import { UsageError } from "../UsageError.js"
import { say, whole } from "../Progress.js"

const fromDatabase = (projectId: string, format: ExportFormat, environment: string | undefined) =>
  Effect.flatMap(FlagsAsCode, (code) => code.exportText(projectId, format, environment)).pipe(Storage.withDatabase)

const fromServer = (url: string, key: string, projectId: string, format: ExportFormat, environment: string | undefined) => {
  const query = new URLSearchParams({ format, ...(environment === undefined ? {} : { environment }) })
  return Effect.map(callServer(url, key, `/v1/projects/${encodeURIComponent(projectId)}/export?${query}`), (answer) => answer.text)
}

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
      const text = Option.isSome(server)
        ? yield* fromServer(server.value.url, server.value.key, options.project, options.format, environment)
        : yield* fromDatabase(options.project, options.format, environment)
      if (Option.isNone(options.out)) return yield* Effect.sync(() => void process.stdout.write(text))
      const file = options.out.value
      yield* whole(Effect.zipRight(Effect.sync(() => writeFileSync(file, text)), note(`wrote ${file}`)), () => `${file} was written whole`)
    })
).pipe(Command.withDescription("Write a project as its declarative file (YAML or JSON), or as the OpenFeature CLI's flag manifest."))
