/**
 * A command run from another directory than the server's, with the default DATABASE_URL
 * (sqlite:./data/flagport.db, relative to the working directory): the commands that only read or
 * change what is there refuse a missing file by its path and create nothing; `migrate`, `seed`
 * and `serve` begin a database. A not-found error names the database it looked in.
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runCli, startServer, stopServer } from "./Process.js"

const elsewhere = () => mkdtempSync(join(tmpdir(), "flagport-elsewhere-"))

/** The one error line, and what the directory holds afterwards. */
const inEmptyDirectory = async (args: (dir: string) => ReadonlyArray<string>) => {
  const dir = elsewhere()
  const result = await runCli(args(dir), {}, dir)
  return { ...result, created: existsSync(join(dir, "data")) }
}

describe("a command run where there is no database", () => {
  it("refuses, naming the file it looked for, and creates nothing", { timeout: 300_000 }, async () => {
    const commands: Record<string, (dir: string) => ReadonlyArray<string>> = {
      "flags list": () => ["flags", "list"],
      "flags enable": () => ["flags", "enable", "new-checkout", "--environment", "production"],
      "projects list": () => ["projects", "list"],
      "keys create": () => ["keys", "create", "--type", "server"],
      "users create": () => ["users", "create", "--email", "someone@example.com"],
      export: () => ["export", "--project", "default"],
      codegen: () => ["codegen", "--project", "default"],
      apply: (dir) => {
        writeFileSync(join(dir, "flagport.yaml"), "project:\n  id: default\n  name: Default\n")
        return ["apply", "flagport.yaml"]
      },
      "import flagd": (dir) => {
        writeFileSync(join(dir, "flags.json"), JSON.stringify({ flags: {} }))
        return ["import", "flagd", "flags.json", "--environment", "production"]
      }
    }
    const outcomes = await Promise.all(
      Object.entries(commands).map(async ([name, args]) => {
        const result = await inEmptyDirectory(args)
        return { name, code: result.code, stderr: result.stderr.trim(), created: result.created }
      })
    )
    for (const outcome of outcomes) {
      expect(outcome, outcome.name).toMatchObject({ code: 1, created: false })
      expect(outcome.stderr, outcome.name).toMatch(
        /^error: no database at \.\/data\/flagport\.db \(\/.*\/data\/flagport\.db, from DATABASE_URL=sqlite:\.\/data\/flagport\.db\): this command opens an existing database; run it where the database is or set DATABASE_URL, or create one with flagport migrate, seed or serve$/
      )
    }
  })

  it("is begun by migrate and by seed; then a not-found error names the database read", { timeout: 120_000 }, async () => {
    const migrated = elsewhere()
    expect((await runCli(["migrate"], {}, migrated)).code).toBe(0)
    expect(existsSync(join(migrated, "data/flagport.db"))).toBe(true)

    const seeded = elsewhere()
    expect((await runCli(["seed"], {}, seeded)).code).toBe(0)
    const unknown = await runCli(["flags", "list", "--project", "shop"], {}, seeded)
    expect({ code: unknown.code, stderr: unknown.stderr.trim() }).toEqual({ code: 1, stderr: "error: Project 'shop' not found in sqlite:./data/flagport.db" })
    const flag = await runCli(["flags", "get", "nope"], {}, seeded)
    expect(flag.stderr.trim()).toBe("error: Flag 'nope' not found in project 'default' of sqlite:./data/flagport.db")
  })

  it("is begun by serve", { timeout: 120_000 }, async () => {
    const served = elsewhere()
    const url = `sqlite:${join(served, "data/flagport.db")}`
    const server = await startServer(["serve"], { DATABASE_URL: url })
    expect(await stopServer(server)).toBe(0)
    expect(existsSync(join(served, "data/flagport.db"))).toBe(true)
  })
})
