/**
 * What a new user reads from the CLI: a wrong command line is one `error:` line (docs/cli.md,
 * "Output and exit codes"), a subcommand's help shows the whole command to type, and the log
 * level names are the same in the README, the FLAGPORT_LOG_LEVEL error and `--log-level`.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { logLevelConfig } from "../../adapters/http/serving/LogLevelConfig.js"
import { freshSqliteUrl, ROOT, runCli } from "./Process.js"

const TIMEOUT = 120_000

describe("argument errors", () => {
  it.each([
    [["projects", "create"], "error: Missing argument <ID>"],
    [["environments", "create", "qa"], "error: Expected to find option: '--project'"],
    [["keys", "create"], "error: Expected to find option: '--type'"],
    [["keys", "create", "--type", "admin"], "error: Expected one of the following cases: server, client"],
    [["frobnicate"], "error: Invalid subcommand for flagport - use one of 'serve', 'migrate', 'seed', 'keys', 'projects', 'environments', 'codegen'"]
  ])("flagport %j: one line, exit 2", { timeout: TIMEOUT }, async (args, line) => {
    const result = await runCli(args, { DATABASE_URL: freshSqliteUrl() })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`${line}\n`)
    expect(result.stdout).toBe("")
  })
})

describe("per-command help", () => {
  it.each([
    [["keys", "create", "--help"], "$ flagport keys create --type server | client"],
    [["projects", "create", "shop", "--help"], "$ flagport projects create [--name NAME]"],
    [["environments", "--help"], "$ flagport environments"],
    [["--help"], "$ flagport"]
  ])("flagport %j shows the whole command", { timeout: TIMEOUT }, async (args, usage) => {
    const result = await runCli(args)
    expect(result.code).toBe(0)
    const lines = result.stdout.split("\n")
    const usageLine = lines[lines.indexOf("USAGE") + 2]
    expect(usageLine?.startsWith(usage)).toBe(true)
  })
})

describe("log level names", () => {
  it("are the same in the README, the FLAGPORT_LOG_LEVEL error and --log-level", { timeout: TIMEOUT }, async () => {
    const help = await runCli(["--help"])
    const option = /^--log-level (.+)$/m.exec(help.stdout)
    expect(option).not.toBeNull()
    const fromOption = option![1]!.split(" | ")

    const refused = Effect.runSync(
      Effect.either(logLevelConfig).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["FLAGPORT_LOG_LEVEL", "loud"]]))))
    )
    expect(Either.isLeft(refused)).toBe(true)
    const message = String(Either.isLeft(refused) ? refused.left : "")
    const fromError = /Expected one of ([a-z, ]+)/.exec(message)![1]!.trim().split(", ")

    const readme = readFileSync(join(ROOT, "README.md"), "utf8")
    const row = readme.split("\n").find((line) => line.startsWith("| `FLAGPORT_LOG_LEVEL`"))!
    const listed = row.slice(row.indexOf("logs:"), row.indexOf("("))
    const fromReadme = [...listed.matchAll(/`([a-z]+)`/g)].map((match) => match[1]!)

    expect(fromOption).toEqual(["all", "trace", "debug", "info", "warning", "error", "fatal", "none"])
    expect(fromError).toEqual(fromOption)
    expect(fromReadme).toEqual(fromOption)
  })
})
