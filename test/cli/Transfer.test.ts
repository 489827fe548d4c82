/**
 * `flagport transfer` through the real binary: a SQLite database made with the CLI moved to
 * PostgreSQL and back, the comparison on stdout, a refused non-empty target (exit 1, one line,
 * nothing written), a command line without --to (exit 2), and the keys working on the copy.
 */
import { describe, expect, it } from "vitest"
import { backends } from "./Databases.js"
import { freshSqliteUrl, keyLines, runCli } from "./Process.js"

const TIMEOUT = 180_000

const postgres = backends.find((backend) => backend.name === "postgres")!

/** The comparison's line for one table: name, rows on each side, verdict. */
const rowOf = (stdout: string, table: string) => stdout.split("\n").find((line) => line.startsWith(`${table} `))?.trim().split(/\s+/)

describe("flagport transfer", () => {
  it("moves a server from SQLite to PostgreSQL and back; the keys work on each copy", { timeout: TIMEOUT }, async () => {
    const source = freshSqliteUrl()
    const seeded = await runCli(["seed"], { DATABASE_URL: source })
    expect(seeded.code, seeded.stderr).toBe(0)
    const { SERVER_KEY: serverKey } = keyLines(seeded.stdout)
    expect((await runCli(["projects", "create", "shop"], { DATABASE_URL: source })).code).toBe(0)
    const keysBefore = await runCli(["keys", "list"], { DATABASE_URL: source })

    const pg = await postgres.fresh()
    const moved = await runCli(["transfer", "--from", source, "--to", pg])
    expect(moved.code, moved.stderr).toBe(0)
    expect(moved.stdout.split("\n")[0]).toMatch(/^TABLE\s+SOURCE\s+TARGET$/)
    expect(rowOf(moved.stdout, "flagport_projects")).toEqual(["flagport_projects", "2", "2", "same"])
    expect(rowOf(moved.stdout, "flagport_api_keys")).toEqual(["flagport_api_keys", "2", "2", "same"])
    expect(rowOf(moved.stdout, "flagport_migrations")).toBeUndefined()
    expect(moved.stdout).toMatch(/^flags: \d+ compared, definitions and targeting identical$/m)
    expect(moved.stderr).toMatch(/^copied flagport_projects: 2 rows$/m)
    expect(moved.stderr).toMatch(/^Copied sqlite:.* to postgres:\/\/.* in \d+\.\d s; the source was not changed\./m)
    expect(`${moved.stdout}${moved.stderr}`).not.toContain(new URL(pg).password || "no password in this URL")

    // The copy answers with the same keys, and lists the same ones.
    expect((await runCli(["keys", "list"], { DATABASE_URL: pg })).stdout).toBe(keysBefore.stdout)
    expect(serverKey).toMatch(/^srv_/)

    // Into it again: refused, one line, exit 1, nothing printed on stdout, nothing written.
    const again = await runCli(["transfer", "--from", source, "--to", pg])
    expect(again.code).toBe(1)
    expect(again.stdout).toBe("")
    expect(again.stderr).toMatch(/^error: The target postgres:\/\/\S+ is not empty \(.*flagport_projects: 2 rows.*\): transfer writes only into an empty database, and wrote nothing\n$/)
    expect((await runCli(["keys", "list"], { DATABASE_URL: pg })).stdout).toBe(keysBefore.stdout)

    // And back to a new SQLite file.
    const back = freshSqliteUrl()
    const returned = await runCli(["transfer", "--from", pg, "--to", back])
    expect(returned.code, returned.stderr).toBe(0)
    expect(rowOf(returned.stdout, "flagport_audit_log")?.[3]).toBe("same")
    expect((await runCli(["keys", "list"], { DATABASE_URL: back })).stdout).toBe(keysBefore.stdout)
  })

  it.each([
    [["transfer", "--from", "sqlite:./x.db"], "error: Expected to find option: '--to'", 2],
    [["transfer", "--from", "sqlite:/nowhere/x.db", "--to", "memory:"], "error: The target memory: is an in-memory database: nothing outlives the process to copy to; give a sqlite: file or a postgres:// URL", 1],
    [["transfer", "--from", "sqlite:/nowhere/x.db", "--to", "sqlite:/tmp/flagport-transfer-unused.db"], "error: The source SQLite database '/nowhere/x.db' does not exist", 1]
  ])("flagport %j: the one line %j, exit %i", { timeout: TIMEOUT }, async (args, line, code) => {
    const result = await runCli(args)
    expect(result.stderr).toBe(`${line}\n`)
    expect(result.code).toBe(code)
    expect(result.stdout).toBe("")
  })
})
