/**
 * What a new user reads from the CLI: a wrong command line is one `error:` line (docs/guide/cli.md,
 * "Output and exit codes"), a subcommand's help shows the whole command to type, and the log
 * level names are the same in the configuration table (docs/operations/operating.md), the FLAGPORT_LOG_LEVEL error and `--log-level`.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { completions } from "../../adapters/cli/Cli.js"
import { logLevelConfig } from "../../adapters/http/serving/LogLevelConfig.js"
import { freshSqliteUrl, ROOT, runCli } from "./Process.js"

const TIMEOUT = 120_000

describe("argument errors", () => {
  it.each([
    [["projects", "create"], "error: Missing argument <ID>"],
    [["environments", "create", "qa"], "error: Expected to find option: '--project'"],
    [["keys", "create"], "error: Expected to find option: '--type'"],
    [["keys", "create", "--type", "admin"], "error: Expected one of the following cases: server, client"],
    [["frobnicate"], "error: Invalid subcommand for flagport - use one of 'serve', 'migrate', 'seed', 'keys', 'users', 'projects', 'environments', 'flags', 'experiments', 'release-plans', 'change-requests', 'import', 'codegen', 'transfer', 'export', 'apply'"]
  ])("flagport %j: one line, exit 2", { timeout: TIMEOUT }, async (args, line) => {
    const result = await runCli(args, { DATABASE_URL: freshSqliteUrl() })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`${line}\n`)
    expect(result.stdout).toBe("")
  })
})

describe("per-command help", () => {
  it.each([
    [["keys", "create", "--help"], "Usage: flagport keys create --type server|client"],
    [["projects", "create", "shop", "--help"], "Usage: flagport projects create ID [--name NAME]"],
    [["environments", "--help"], "Usage: flagport environments <create|list>"],
    [["--help"], "Usage: flagport <command>"]
  ])("flagport %j shows the whole command", { timeout: TIMEOUT }, async (args, usage) => {
    const result = await runCli(args)
    expect(result.code).toBe(0)
    expect(result.stdout.split("\n").find((line) => line.startsWith("Usage:"))).toMatch(new RegExp(`^${usage.replace(/[|[\]()<>]/g, "\\$&")}`))
  })
})

describe("log level names", () => {
  it("are the same in the configuration table, the FLAGPORT_LOG_LEVEL error and --log-level", { timeout: TIMEOUT }, async () => {
    // The choices the parser accepts for --log-level (its completions list them).
    const line = (await Effect.runPromise(completions)).find((l) => l.includes("__fish_use_subcommand") && l.includes("-l log-level"))!
    const fromOption = /-a "\{([^}]*)\}"/.exec(line)![1]!.split(",").map((choice) => choice.replace(/''/g, ""))

    const refused = Effect.runSync(
      Effect.either(logLevelConfig).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["FLAGPORT_LOG_LEVEL", "loud"]]))))
    )
    expect(Either.isLeft(refused)).toBe(true)
    const message = String(Either.isLeft(refused) ? refused.left : "")
    const fromError = /Expected one of ([a-z, ]+)/.exec(message)![1]!.trim().split(", ")

    const operations = readFileSync(join(ROOT, "docs/operations/operating.md"), "utf8")
    const row = operations.split("\n").find((line) => line.startsWith("| `FLAGPORT_LOG_LEVEL`"))!
    const listed = row.slice(row.indexOf("logs:"), row.indexOf("("))
    const fromDocs = [...listed.matchAll(/`([a-z]+)`/g)].map((match) => match[1]!)

    expect(fromOption).toEqual(["all", "trace", "debug", "info", "warning", "error", "fatal", "none"])
    expect(fromError).toEqual(fromOption)
    expect(fromDocs).toEqual(fromOption)
  })
})
