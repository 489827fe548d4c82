/**
 * `flagport import flagd FILE --environment ENV [--project ID] [--skip-unsupported] [--dry-run]`:
 * brings a flagd flag definition file (JSON, or YAML as flagd also reads) into a project through
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
import { parse as parseYaml } from "yaml"
import { FlagdImport, type ImportReport } from "../../../src/services/flagd/FlagdImport.js"
import * as Shared from "../Options.js"
import { note, printJson, printTable } from "../Output.js"
import { readInput } from "../InputFile.js"
import { say, whole } from "../Progress.js"
import * as Storage from "../Storage.js"
import { UsageError } from "../UsageError.js"

/** The file could not be read or parsed, or the import refused a flag. */
export class ImportFailed extends Data.TaggedError("ImportFailed")<{ readonly message: string }> {}

const readDocument = (file: string) =>
  Effect.flatMap(readInput(file), (text) =>
    Effect.try({
      try: () => (/\.ya?ml$/i.test(file) ? (parseYaml(text) as unknown) : (JSON.parse(text) as unknown)),
      catch: (error) => new ImportFailed({ message: `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}` })
    })
  )

const detail = (flag: ImportReport["flags"][number]): string =>
  "rules" in flag ? `${flag.rules} rule(s)` : `${flag.path}: ${flag.reason}`

const flagd = Command.make(
  "flagd",
  {
    file: Args.text({ name: "FILE" }).pipe(Args.withDescription("A flagd flag definition file (.json, .yaml or .yml).")),
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
      const document = yield* readDocument(options.file)
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
    "Import a flagd flag definition file: each flag with its variants as variations and its targeting as rules in one environment; a flag with no faithful translation is refused with the reason."
  )
)

export const importCommand = Command.make("import", {}, () =>
  new UsageError({ message: "missing subcommand: flagport import flagd FILE --environment ENV (see --help)" })
).pipe(
  Command.withDescription("Import flags from another tool (flagd)."),
  Command.withSubcommands([flagd])
)
