import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Shared from "../Options.js"
import * as Storage from "../Storage.js"
import { printJson, printLines } from "../Output.js"
import { seed as runSeed, seedJson, seedLines } from "../Seed.js"
import { whole } from "../Progress.js"

export const seed = Command.make("seed", { json: Shared.json }, (options) =>
  Effect.gen(function* () {
    yield* whole(
      Effect.tap(runSeed, (result) => (options.json ? printJson(seedJson(result)) : printLines(seedLines(result)))),
      (result) => `project ${result.projectId} was seeded and a new pair of keys printed above`
    )
  })
).pipe(
  Command.provide(Storage.creatingLayer),
  Command.withDescription(
    "Create project `default` with environments development, staging and production when missing, then a new " +
      "global server key and a new client key for `default`. Prints SERVER_KEY=srv_..., CLIENT_KEY=cli_..., " +
      "PROJECT_ID=default (--json: { serverKey, clientKey, projectId, environments })."
  )
)
