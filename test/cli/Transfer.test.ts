/**
 * `flagport transfer` through the real binary: a SQLite database made with the CLI moved to
 * PostgreSQL and back, the comparison on stdout, a refused non-empty target (exit 1, one line,
 * nothing written), a command line without --to (exit 2), and the keys working on the copy; an
 * existing SQLite target made its owner's alone, or the warning when it cannot be.
 */
import { chmodSync, existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { backends } from "./Databases.js"
import { freshSqliteUrl, keyLines, ROOT, runCli } from "./Process.js"

const TIMEOUT = 180_000

/** The unprivileged user a root test runs a command as. */
const NOBODY = { uid: 65534, gid: 65534 }

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

/** A file's permission bits, in octal. */
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8)

describe("flagport transfer into an existing SQLite file", () => {
  it("makes it (and its -wal and -shm) 0600: it receives every secret of the server", { timeout: TIMEOUT }, async () => {
    const source = freshSqliteUrl()
    expect((await runCli(["seed"], { DATABASE_URL: source })).code).toBe(0)
    const target = join(mkdtempSync(join(tmpdir(), "flagport-cli-")), "target.db")
    writeFileSync(target, "")
    chmodSync(target, 0o644)
    const moved = await runCli(["transfer", "--from", source, "--to", `sqlite:${target}`])
    expect(moved.code, moved.stderr).toBe(0)
    expect(`${moved.stdout}${moved.stderr}`).not.toContain("may be read by other users")
    for (const path of [target, `${target}-wal`, `${target}-shm`].filter(existsSync)) expect(`${path}: ${modeOf(path)}`).toBe(`${path}: 600`)
  })

  // Only root can run the command as another user, whose chmod of root's file then fails.
  it.runIf(process.getuid?.() === 0)("warns as serve does when it cannot (the file is another user's)", { timeout: TIMEOUT }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "flagport-cli-"))
    chmodSync(dir, 0o777)
    const source = join(dir, "source.db")
    expect((await runCli(["seed"], { DATABASE_URL: `sqlite:${source}` })).code).toBe(0)
    chmodSync(source, 0o644)
    const target = join(dir, "target.db")
    writeFileSync(target, "")
    chmodSync(target, 0o666)
    const moved = await runCli(["transfer", "--from", `sqlite:${source}`, "--to", `sqlite:${target}`], {}, ROOT, NOBODY)
    expect(moved.code, moved.stderr).toBe(0)
    expect(`${moved.stdout}${moved.stderr}`).toContain(`SQLite database '${target}' may be read by other users (mode 666)`)
    expect(modeOf(target)).toBe("666")
  })
})
