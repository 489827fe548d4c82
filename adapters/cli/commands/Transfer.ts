import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { type TransferReport, TransferMismatch, transfer as transferServer } from "../../storage/Transfer.js"
import { note, printLines, printTable } from "../Output.js"
import { Progress, say } from "../Progress.js"

const url = (name: "from" | "to", what: string) =>
  Options.text(name).pipe(Options.withPseudoName("URL"), Options.withDescription(what))

/** The comparison, one table per line, then the flags: what the operator reads before switching. */
const printComparison = (report: TransferReport) =>
  Effect.zipRight(
    printTable(
      ["TABLE", "SOURCE", "TARGET", ""],
      report.tables.map((count) => [count.table, String(count.source), String(count.target), count.source === count.target ? "same" : "DIFFERENT"])
    ),
    printLines([
      report.flags.differing.length === 0
        ? `flags: ${report.flags.compared} compared, definitions and targeting identical`
        : `flags: ${report.flags.compared} compared, ${report.flags.differing.length} different: ${report.flags.differing.join(", ")}`
    ])
  )

/**
 * `flagport transfer --from URL --to URL`: the whole server from one database to another (SQLite
 * and PostgreSQL either way), into an empty target; prints the comparison of the two. A copy that
 * does not compare equal is rolled back, and its comparison printed before the error.
 */
export const transfer = Command.make(
  "transfer",
  {
    from: url("from", "The database to copy from (read only): sqlite:PATH or postgres://..."),
    to: url("to", "The empty database to copy to (migrated first): sqlite:PATH or postgres://...")
  },
  (options) =>
    Effect.gen(function* () {
      const started = yield* Clock.currentTimeMillis
      const onTable = (table: string, rows: number) => note(`copied ${table}: ${rows} ${rows === 1 ? "row" : "rows"}`)
      yield* say("nothing was copied (the copy is one transaction, rolled back); the source was not changed")
      const progress = yield* Progress
      const onCommitted = () => Effect.provideService(say("the copy was committed to the target; the source was not changed"), Progress, progress)
      const report = yield* transferServer({ from: options.from, to: options.to, onTable, onCommitted }).pipe(
        Effect.tapError((error) => (error instanceof TransferMismatch ? printComparison(error.report) : Effect.void))
      )
      yield* printComparison(report)
      const seconds = ((yield* Clock.currentTimeMillis) - started) / 1000
      yield* note(
        `Copied ${report.from} to ${report.to} in ${seconds.toFixed(1)} s; the source was not changed. ` +
          "Start the server with DATABASE_URL set to the target."
      )
    })
).pipe(
  Command.withDescription(
    "Copy everything a server holds from one database to an empty other (SQLite to PostgreSQL or back), in one transaction, and compare the two."
  )
)
