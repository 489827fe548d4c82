/**
 * `flagport import flagd FILE|--url URL --environment ENV [--project ID] [--skip-unsupported] [--dry-run]`:
 * brings a flagd flag definition file (JSON, or YAML as flagd also reads), from disk or fetched
 * over HTTP(S) (RemoteFile.ts: bounded in time and size), into a project through
 * the FlagdImport use case (src/services/flagd/FlagdImport.ts): one transaction, each write validated,
 * versioned and audited as `cli`. It prints one line per flag (imported, or refused and why); a
 * refused flag makes the command write nothing and exit 1, unless `--skip-unsupported` imports
 * the rest.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { parse as parseYaml } from "yaml"
import { FlagdImport, type ImportReport } from "../../../src/services/flagd/FlagdImport.js"
import * as Shared from "../Options.js"
import { note, printJson, printTable } from "../Output.js"
import { readInput } from "../InputFile.js"
import { fetchFile, httpUrl } from "../RemoteFile.js"
import { say, whole } from "../Progress.js"
import * as Storage from "../Storage.js"
import { UsageError } from "../UsageError.js"

/** The file could not be read or parsed, or the import refused a flag. */
export class ImportFailed extends Data.TaggedError("ImportFailed")<{ readonly message: string }> {}

/** `text` as YAML when its name or content type says so, else JSON. */
const parseDocument = (text: string, from: string, yaml: boolean) =>
  Effect.try({
    try: () => (yaml ? (parseYaml(text) as unknown) : (JSON.parse(text) as unknown)),
    catch: (error) => new ImportFailed({ message: `cannot read ${from}: ${error instanceof Error ? error.message : String(error)}` })
  })

const YAML_NAME = /\.ya?ml$/i

const readDocument = (file: string) => Effect.flatMap(readInput(file), (text) => parseDocument(text, file, YAML_NAME.test(file)))

/** The file a flagd deployment serves: YAML by its content type or its path's extension, else JSON. */
const fetchDocument = (url: string) =>
  Effect.gen(function* () {
    const address = yield* httpUrl(url)
    const { contentType, text } = yield* fetchFile(address)
    return yield* parseDocument(text, url, /yaml/i.test(contentType ?? "") || YAML_NAME.test(address.pathname))
  })

const detail = (flag: ImportReport["flags"][number]): string =>
  "rules" in flag ? `${flag.rules} rule(s)` : `${flag.path}: ${flag.reason}`

const flagd = Command.make(
  "flagd",
  {
    file: Args.text({ name: "FILE" }).pipe(Args.withDescription("A flagd flag definition file (.json, .yaml or .yml)."), Args.optional),
    url: Options.text("url").pipe(
      Options.withPseudoName("URL"),
      Options.withDescription("Fetch the flagd flag definition file from this http(s) URL instead of a FILE."),
      Options.optional
    ),
    project: Options.text("project").pipe(
      Options.withPseudoName("ID"),
      Options.withDescription("The project to import into (default: default)."),
      Options.withDefault("default")
    ),
    environment: Options.text("environment").pipe(
      Options.withPseudoName("ENV"),
      Options.withDescription("The environment whose targeting the flags' rules become (enabled there; disabled in the others).")
    ),
    skipUnsupported: Options.boolean("skip-unsupported").pipe(Options.withDescription("Import the flags that translate and leave out the refused ones.")),
    dryRun: Options.boolean("dry-run").pipe(Options.withDescription("Translate and check only; write nothing.")),
    json: Shared.json
  },
  (options) =>
    Effect.gen(function* () {
      yield* say("nothing was imported")
      if (Option.isSome(options.file) === Option.isSome(options.url)) {
        return yield* new UsageError({ message: "name the flagd file: a FILE, or --url URL to fetch it (one of the two)" })
      }
      const document = yield* (Option.isSome(options.url) ? fetchDocument(options.url.value) : readDocument(Option.getOrThrow(options.file)))
      // One transaction, and its listing with it (Progress.ts).
      const report = yield* whole(
        Effect.tap(
          (yield* FlagdImport).importFlags(options.project, options.environment, document, { skipUnsupported: options.skipUnsupported, dryRun: options.dryRun }),
          (report) => (options.json ? printJson(report) : printTable(["FLAG", "RESULT", "DETAIL"], report.flags.map((flag) => [flag.key, flag.result, detail(flag)])))
        ),
        (report) =>
          report.written
            ? `${report.flags.filter((flag) => flag.result === "imported").length} flag(s) were imported into ${report.projectId}/${report.environment} (listed above)`
            : "nothing was imported"
      )
      const refused = report.flags.filter((flag) => flag.result === "refused").length
      if (refused > 0) {
        return yield* new ImportFailed({
          message: `${refused} flag(s) refused, nothing imported; change them in the file, or pass --skip-unsupported to import the others`
        })
      }
      const imported = report.flags.filter((flag) => flag.result === "imported").length
      yield* note(options.dryRun ? "dry run: nothing written" : `imported ${imported} flag(s) into ${report.projectId}/${report.environment}`)
    }).pipe(Storage.withDatabase)
).pipe(
  Command.withDescription(
    "Import a flagd flag definition file (or fetch it with --url): each flag with its variants as variations and its targeting as rules in one environment; a flag with no faithful translation is refused with the reason."
  )
)

export const importCommand = Command.make("import", {}, () =>
  new UsageError({ message: "missing subcommand: flagport import flagd FILE|--url URL --environment ENV (see --help)" })
).pipe(
  Command.withDescription("Import flags from another tool (flagd)."),
  Command.withSubcommands([flagd])
)
