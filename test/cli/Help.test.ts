/**
 * `--help` written for people (issue 25): no parser boilerplate, 80 columns, examples, and in step
 * with the parser: every command the parser knows has a page naming each of its options, and the
 * real binary prints the page for the command line it is given.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { completions } from "../../adapters/cli/Cli.js"
import { helpFor, helpPaths } from "../../adapters/cli/Help.js"
import { runCli } from "./Process.js"

const BUILT_IN = new Set(["completions", "log-level", "help", "wizard", "version"])

/** Command path -> its own options, from the parser's fish completions. */
const parserCommands = async (): Promise<Map<string, Set<string>>> => {
  const commands = new Map<string, Set<string>>()
  for (const line of await Effect.runPromise(completions)) {
    const condition = /-n "([^"]*)"/.exec(line)![1]!
    const path = [...condition.matchAll(/(?<!not )__fish_seen_subcommand_from (\S+?)(?=;|$)/g)].map((m) => m[1]).join(" ")
    if (!commands.has(path)) commands.set(path, new Set())
    const option = / -l (\S+)/.exec(line)?.[1]
    if (option !== undefined && !BUILT_IN.has(option)) commands.get(path)!.add(option)
  }
  return commands
}

describe("flagport --help", () => {
  it("has a page for every command the parser knows, naming each of its options", async () => {
    const commands = await parserCommands()
    expect([...commands.keys()].sort()).toEqual([...helpPaths()].sort())
    for (const [path, options] of commands) {
      const page = helpFor([...path.split(" ").filter((w) => w !== ""), "--help"])!
      expect(page, path).toContain(`flagport${path === "" ? "" : ` ${path}`}`)
      for (const option of options) expect(page, `${path}: --${option}`).toContain(`--${option}`)
    }
  })

  it("reads as written for people: 80 columns, examples, no parser boilerplate", () => {
    for (const path of helpPaths()) {
      const page = helpFor([...path.split(" ").filter((w) => w !== ""), "--help"])!
      for (const line of page.split("\n")) expect(line.length, `${path}: ${line}`).toBeLessThanOrEqual(80)
      expect(page).not.toMatch(/--wizard|A true or false value|This setting is optional/)
    }
    for (const path of ["", "serve", "keys create", "flags disable", "codegen", "export", "apply"]) {
      expect(helpFor([...path.split(" ").filter((w) => w !== ""), "--help"]), path).toMatch(/Examples?:/)
    }
  })

  it("the binary prints the page of the command line it is given", { timeout: 60_000 }, async () => {
    const root = await runCli(["--help"])
    expect(root.code).toBe(0)
    expect(root.stdout).toBe(helpFor([]))
    const bare = await runCli([])
    expect(bare.stdout).toBe(helpFor([]))
    const create = await runCli(["keys", "create", "--type", "server", "-h"])
    expect(create.code).toBe(0)
    expect(create.stdout).toBe(helpFor(["keys", "create", "--help"]))
    expect(create.stdout).toMatch(/^Usage: flagport keys create --type server\|client/)
  })
})
