/**
 * The exit codes of docs/guide/cli.md ("Output and exit codes"), row by row, through the real
 * binary: 2 when the command line is wrong (the fix is in the command line), 1 when a command line
 * that was understood could not be carried out (a file that is missing or unreadable, an unknown
 * project, a bad file), 0 on success; the one exception is `apply --dry-run --detailed-exitcode`
 * (2: the plan has changes; a wrong command line is 1 wherever --detailed-exitcode is given).
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { freshSqliteUrl, runCli } from "./Process.js"

const DIR = mkdtempSync(join(tmpdir(), "flagport-exit-"))
const file = (name: string, text: string) => {
  const path = join(DIR, name)
  writeFileSync(path, text)
  return path
}

const PROJECT_FILE = `project:\n  id: default\n  name: Default\nenvironments:\n  - { key: development, name: Development }\n  - { key: staging, name: Staging }\n  - { key: production, name: Production }\nflags:\n  - key: exit-codes\n    name: Exit codes\n    type: boolean\n    variations:\n      - { key: "on", value: true }\n      - { key: "off", value: false }\n`
const NO_PROJECT = "flags: []\n"

interface Row {
  readonly args: ReadonlyArray<string>
  readonly code: 0 | 1 | 2
  /** The first line on stderr, when the command fails (the only one, but for a bad file's problems, one a line). */
  readonly error?: RegExp
}

const rows = (): Record<string, Row> => ({
  // 2: the command line is wrong.
  "an unknown command": { args: ["frobnicate"], code: 2, error: /^error: / },
  "an unknown option": { args: ["projects", "list", "--frobnicate"], code: 2, error: /^error: / },
  "a missing required option": { args: ["keys", "create"], code: 2, error: /--type/ },
  "a missing subcommand": { args: ["flags"], code: 2, error: /^error: missing subcommand/ },
  "a flagd file named twice (FILE and --url)": { args: ["import", "flagd", "flags.json", "--url", "http://127.0.0.1:9/flags.json", "--environment", "production"], code: 2, error: /one of the two/ },
  "a --url that is not http(s)": { args: ["import", "flagd", "--url", "file:///etc/passwd", "--environment", "production"], code: 2, error: /--url takes an http:\/\/ or https:\/\/ URL/ },
  "a rejection without its reason": { args: ["change-requests", "reject", "0193f1c2"], code: 2, error: /--comment/ },
  "a client key without --project": { args: ["keys", "create", "--type", "client"], code: 2, error: /must be scoped to a project/ },
  "--key without --url": { args: ["codegen", "--project", "default", "--key", "srv_x"], code: 2, error: /--key goes with --url/ },
  "--environment without the manifest format": { args: ["export", "--project", "default", "--environment", "production"], code: 2, error: /--environment is for/ },
  "a file that names no project, without --project": { args: ["apply", file("anonymous.yaml", NO_PROJECT)], code: 2, error: /say which with --project/ },
  // 1: understood, but it could not be done.
  "apply of a missing file": { args: ["apply", join(DIR, "missing.yaml")], code: 1, error: /^error: cannot read .*missing\.yaml: ENOENT/ },
  "import of a missing file": { args: ["import", "flagd", join(DIR, "missing.json"), "--environment", "production"], code: 1, error: /^error: cannot read .*missing\.json: ENOENT/ },
  "a file that is not YAML": { args: ["apply", file("broken.yaml", "flags: [\n")], code: 1, error: /is not YAML or JSON/ },
  "an unknown project": { args: ["flags", "list", "--project", "nope"], code: 1, error: /^error: Project 'nope' not found/ },
  "a flagd file whose URL answers nothing": { args: ["import", "flagd", "--url", "http://127.0.0.1:2/flags.json", "--environment", "production"], code: 1, error: /^error: cannot fetch http:\/\/127\.0\.0\.1:2\/flags\.json: ECONNREFUSED/ },
  "an unknown change request": { args: ["change-requests", "approve", "nope"], code: 1, error: /^error: Change request 'nope' not found in project 'default' of sqlite:/ },
  "an empty --password-stdin": { args: ["users", "create", "--email", "empty@example.com", "--password-stdin"], code: 1, error: /standard input was empty/ },
  // A wrong command line is 1 wherever --detailed-exitcode is asked for: 2 would read as "changes".
  "a wrong command line under --detailed-exitcode": { args: ["apply", file("plan.yaml", PROJECT_FILE), "--dry-run", "--detailed-exitcode", "--frobnicate"], code: 1, error: /^error: / },
  "--detailed-exitcode without --dry-run": { args: ["apply", file("plain.yaml", PROJECT_FILE), "--detailed-exitcode"], code: 1, error: /goes with --dry-run/ },
  // 2 as an answer, not an error: the plan has changes.
  "a plan with changes under --dry-run --detailed-exitcode": { args: ["apply", file("changes.yaml", PROJECT_FILE), "--dry-run", "--detailed-exitcode"], code: 2 },
  // 0
  "a read that succeeds": { args: ["projects", "list"], code: 0 }
})

describe("flagport's exit codes", () => {
  const env = { DATABASE_URL: freshSqliteUrl() }

  beforeAll(async () => {
    const seeded = await runCli(["seed"], env)
    expect(seeded.code, seeded.stderr).toBe(0)
  }, 120_000)

  it("are those of the documented table, for every kind of command line", { timeout: 300_000 }, async () => {
    const table = Object.entries(rows())
    const results: Array<string> = []
    // A few at a time: each row is a process start.
    for (let i = 0; i < table.length; i += 4) {
      const batch = await Promise.all(table.slice(i, i + 4).map(async ([name, row]) => ({ name, row, result: await runCli(row.args, env) })))
      for (const { name, row, result } of batch) {
        const lines = result.stderr.trim().split("\n").filter((line) => line.trim() !== "")
        const ok = result.code === row.code && (row.error === undefined || row.error.test(lines[0] ?? ""))
        results.push(ok ? `${name}: ${row.code}` : `${name}: ${row.code} expected, got ${result.code} with ${JSON.stringify(result.stderr.trim())}`)
      }
    }
    expect(results).toEqual(table.map(([name, row]) => `${name}: ${row.code}`))
  })
})
