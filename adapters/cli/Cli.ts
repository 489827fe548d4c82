import type * as CliApp from "@effect/cli/CliApp"
import * as Command from "@effect/cli/Command"
import type * as Effect from "effect/Effect"
import pkg from "../../package.json" with { type: "json" }
import { applyCommand } from "./commands/Apply.js"
import { changeRequests } from "./commands/ChangeRequests.js"
import { codegen } from "./commands/Codegen.js"
import { environments } from "./commands/Environments.js"
import { experiments } from "./commands/Experiments.js"
import { exportCommand } from "./commands/Export.js"
import { flags } from "./commands/Flags.js"
import { importCommand } from "./commands/Import.js"
import { keys } from "./commands/Keys.js"
import { migrate } from "./commands/Migrate.js"
import { projects } from "./commands/Projects.js"
import { releasePlans } from "./commands/ReleasePlans.js"
import { seed } from "./commands/Seed.js"
import { serve } from "./commands/Serve.js"
import { transfer } from "./commands/Transfer.js"
import { users } from "./commands/Users.js"
import type { Progress } from "./Progress.js"
import { UsageError } from "./UsageError.js"
import { DEFAULT_DATABASE_URL } from "../storage/DatabaseUrl.js"

/** The `flagport` command tree. */
const root = Command.make("flagport", {}, () =>
  new UsageError({ message: "missing command: see flagport --help" })
).pipe(
  Command.withDescription(
    `Self-hosted feature flags. Configuration: DATABASE_URL (default ${DEFAULT_DATABASE_URL}; ` +
      "postgres://... selects PostgreSQL), PORT (default 8080), HOST (default 0.0.0.0)."
  ),
  Command.withSubcommands([serve, migrate, seed, keys, users, projects, environments, flags, experiments, releasePlans, changeRequests, importCommand, codegen, transfer, exportCommand, applyCommand])
)

/** Parses a full argv (node, script, ...args) and runs the chosen command; Main.ts runs it. */
export const run: (argv: ReadonlyArray<string>) => Effect.Effect<void, unknown, CliApp.CliApp.Environment | Progress> = Command.run(root, {
  name: "flagport",
  version: pkg.version
})

/** The parser's view of every command and option, as fish completions (test/cli/Help.test.ts reads it). */
export const completions: Effect.Effect<Array<string>> = Command.getFishCompletions(root, "flagport")
