/**
 * The real `flagport` binary, run as a child process against a fresh SQLite file and a fresh
 * PostgreSQL database: every command, its output formats and its error exits.
 */
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { backends } from "./Databases.js"
import { childEnv, keyLines, ROOT, runCli } from "./Process.js"

const CLI_TIMEOUT = 120_000

/** An error is one line on stderr: no stack trace, no cause dump. */
const expectOneLineError = (stderr: string, fragment: string | RegExp) => {
  const lines = stderr.trim().split("\n").filter((line) => line.trim() !== "")
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(fragment)
  expect(stderr).not.toMatch(/\n\s+at /)
}

describe("flagport --help", () => {
  it("documents every command, without ANSI escapes when not on a terminal", { timeout: CLI_TIMEOUT }, async () => {
    const result = await runCli(["--help"])
    expect(result.code).toBe(0)
    for (const command of ["serve", "migrate", "seed", "keys", "projects", "environments", "flags", "codegen", "transfer", "export", "apply"]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command} `, "m"))
    }
    for (const variable of ["DATABASE_URL", "sqlite:./data/flagport.db", "PORT", "HOST"]) expect(result.stdout).toContain(variable)
    expect(result.stdout).not.toMatch(/\u001b\[/)
  })

  it("documents the options of keys create", { timeout: CLI_TIMEOUT }, async () => {
    const result = await runCli(["keys", "create", "--help"])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain("--type server|client")
    expect(result.stdout).toContain("--project ID")
    expect(result.stdout).toContain("--environment ENV")
    expect(result.stdout).toContain("--name NAME")
    expect(result.stdout).toContain("--json")
  })

  it("is what `npx flagport` runs in a checkout", { timeout: CLI_TIMEOUT }, async () => {
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn("npx", ["--no-install", "flagport", "--version"], { cwd: ROOT, env: childEnv({}) })
      let stdout = ""
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
      child.on("error", reject)
      child.on("close", (code) => resolve({ code, stdout }))
    })
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version)
  })

  it("runs with no arguments by showing the help", { timeout: CLI_TIMEOUT }, async () => {
    const result = await runCli([])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain("Commands:")
  })

  it("refuses an unknown command with exit code 2", { timeout: CLI_TIMEOUT }, async () => {
    const result = await runCli(["frobnicate"])
    expect(result.code).toBe(2)
    expectOneLineError(result.stderr, /Invalid subcommand/)
  })
})

describe.each(backends)("flagport commands on $name", (backend) => {
  it("migrate applies the schema, and again is a no-op", { timeout: CLI_TIMEOUT }, async () => {
    const env = { DATABASE_URL: await backend.fresh() }
    const first = await runCli(["migrate"], env)
    expect(first.stderr).toMatch(/applied 000\d_/)
    expect(first.code).toBe(0)
    const second = await runCli(["migrate"], env)
    expect(second.code).toBe(0)
    expect(second.stderr).toContain("already up to date")
    // The schema is usable: an empty database lists no projects.
    const projects = await runCli(["projects", "list", "--json"], env)
    expect(projects.code).toBe(0)
    expect(JSON.parse(projects.stdout)).toEqual({ data: [] })
  })

  it("seed creates project default with three environments and prints a new key pair each run", { timeout: CLI_TIMEOUT }, async () => {
    const env = { DATABASE_URL: await backend.fresh() }
    const first = await runCli(["seed"], env)
    expect(first.code).toBe(0)
    const lines = keyLines(first.stdout)
    expect(Object.keys(lines)).toEqual(["SERVER_KEY", "CLIENT_KEY", "PROJECT_ID"])
    expect(lines.SERVER_KEY).toMatch(/^srv_[A-Za-z0-9_-]{20,}$/)
    expect(lines.CLIENT_KEY).toMatch(/^cli_[A-Za-z0-9_-]{20,}$/)
    expect(lines.PROJECT_ID).toBe("default")

    const second = await runCli(["seed", "--json"], env)
    expect(second.code).toBe(0)
    const json = JSON.parse(second.stdout)
    expect(Object.keys(json).sort()).toEqual(["clientKey", "environments", "projectId", "serverKey"])
    expect(json.projectId).toBe("default")
    expect(json.environments).toEqual(["development", "staging", "production"])
    expect(json.serverKey).toMatch(/^srv_/)
    expect(json.clientKey).toMatch(/^cli_/)
    expect(json.serverKey).not.toBe(lines.SERVER_KEY)

    // Nothing was duplicated by the second run; four keys exist (two per run), scoped as promised.
    const projects = JSON.parse((await runCli(["projects", "list", "--json"], env)).stdout)
    expect(projects.data.map((project: { id: string }) => project.id)).toEqual(["default"])
    const environments = JSON.parse((await runCli(["environments", "list", "--project", "default", "--json"], env)).stdout)
    expect(environments.data.map((environment: { key: string }) => environment.key)).toEqual(["development", "staging", "production"])
    const keys = JSON.parse((await runCli(["keys", "list", "--json"], env)).stdout).data as Array<{ type: string; projectId: string | null }>
    expect(keys.map((key) => [key.type, key.projectId])).toEqual([
      ["server", null],
      ["client", "default"],
      ["server", null],
      ["client", "default"]
    ])
  })

  it("projects create and environments create, with their conflicts and validation", { timeout: CLI_TIMEOUT }, async () => {
    const env = { DATABASE_URL: await backend.fresh() }
    expect((await runCli(["migrate"], env)).code).toBe(0)
    const created = await runCli(["projects", "create", "shop", "--name", "The Shop", "--json"], env)
    expect(created.code).toBe(0)
    expect(JSON.parse(created.stdout)).toMatchObject({ id: "shop", name: "The Shop" })

    const plain = await runCli(["projects", "create", "blog"], env)
    expect(plain.code).toBe(0)
    expect(plain.stdout.trim()).toBe("PROJECT_ID=blog")

    const duplicate = await runCli(["projects", "create", "shop"], env)
    expect(duplicate.code).toBe(1)
    expectOneLineError(duplicate.stderr, /^error: .*shop.*already exists/)

    const invalid = await runCli(["projects", "create", "Not A Slug"], env)
    expect(invalid.code).toBe(1)
    expectOneLineError(invalid.stderr, /^error: invalid project .*id: must match/)

    const environment = await runCli(["environments", "create", "qa", "--project", "shop", "--name", "QA"], env)
    expect(environment.code).toBe(0)
    expect(environment.stdout.trim()).toBe("ENVIRONMENT=qa")
    const listed = JSON.parse((await runCli(["environments", "list", "--project", "shop", "--json"], env)).stdout)
    expect(listed.data).toMatchObject([{ key: "qa", name: "QA", projectId: "shop" }])

    const again = await runCli(["environments", "create", "qa", "--project", "shop"], env)
    expect(again.code).toBe(1)
    expectOneLineError(again.stderr, /^error: .*qa.*already exists/)

    const unknown = await runCli(["environments", "create", "qa", "--project", "nope"], env)
    expect(unknown.code).toBe(1)
    expectOneLineError(unknown.stderr, /^error: Project 'nope' not found/)

    const missing = await runCli(["environments", "create", "qa"], env)
    expect(missing.code).toBe(2)
    expectOneLineError(missing.stderr, /--project/)
  })

  it("keys create, list and revoke", { timeout: CLI_TIMEOUT }, async () => {
    const env = { DATABASE_URL: await backend.fresh() }
    expect((await runCli(["migrate"], env)).code).toBe(0)
    expect((await runCli(["projects", "create", "shop"], env)).code).toBe(0)

    const global = await runCli(["keys", "create", "--type", "server", "--name", "ops"], env)
    expect(global.code).toBe(0)
    expect(global.stdout.trim()).toMatch(/^KEY=srv_[A-Za-z0-9_-]{20,}$/)

    const client = await runCli(["keys", "create", "--type", "client", "--project", "shop", "--json"], env)
    expect(client.code).toBe(0)
    const clientJson = JSON.parse(client.stdout)
    expect(Object.keys(clientJson).sort()).toEqual(["environment", "id", "key", "projectId", "type"])
    expect(clientJson.environment).toBeNull()
    expect(clientJson).toMatchObject({ type: "client", projectId: "shop" })
    expect(clientJson.key).toMatch(/^cli_/)

    const scoped = JSON.parse((await runCli(["keys", "create", "--type", "server", "--project", "shop", "--json"], env)).stdout)
    expect(scoped).toMatchObject({ type: "server", projectId: "shop" })

    const refused = await runCli(["keys", "create", "--type", "client"], env)
    expect(refused.code).toBe(2)
    expectOneLineError(refused.stderr, /client key must be scoped to a project.*--project/)

    const unknownProject = await runCli(["keys", "create", "--type", "client", "--project", "nope"], env)
    expect(unknownProject.code).toBe(1)
    expectOneLineError(unknownProject.stderr, /^error: Project 'nope' not found/)

    const badType = await runCli(["keys", "create", "--type", "admin"], env)
    expect(badType.code).toBe(2)

    const listed = await runCli(["keys", "list", "--json"], env)
    expect(listed.code).toBe(0)
    // Secrets are shown once, at creation, and never again.
    expect(listed.stdout).not.toContain(clientJson.key)
    const keys = JSON.parse(listed.stdout).data as Array<{ id: string; name: string; revokedAt: string | null; prefix: string }>
    expect(keys).toHaveLength(3)
    expect(keys[0]!.name).toBe("ops")
    expect(keys[1]!.prefix).toBe(clientJson.key.slice(0, keys[1]!.prefix.length))
    expect(keys.every((key) => key.revokedAt === null)).toBe(true)

    const table = await runCli(["keys", "list"], env)
    expect(table.code).toBe(0)
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+TYPE\s+PROJECT/)
    expect(table.stdout).toContain(clientJson.id)

    const revoked = await runCli(["keys", "revoke", clientJson.id], env)
    expect(revoked.code).toBe(0)
    expect(revoked.stdout.trim()).toBe(`REVOKED=${clientJson.id}`)
    const after = JSON.parse((await runCli(["keys", "list", "--json"], env)).stdout).data as Array<{ id: string; revokedAt: string | null }>
    expect(after.find((key) => key.id === clientJson.id)!.revokedAt).toMatch(/^\d{4}-\d\d-\d\dT/)

    const unknownKey = await runCli(["keys", "revoke", "no-such-key"], env)
    expect(unknownKey.code).toBe(1)
    expectOneLineError(unknownKey.stderr, /^error: API key 'no-such-key' not found/)
  })

  it("keys create --environment binds a key to one environment of its project", { timeout: CLI_TIMEOUT }, async () => {
    const env = { DATABASE_URL: await backend.fresh() }
    expect((await runCli(["migrate"], env)).code).toBe(0)
    expect((await runCli(["projects", "create", "shop"], env)).code).toBe(0)
    expect((await runCli(["environments", "create", "production", "--project", "shop"], env)).code).toBe(0)

    const bound = await runCli(["keys", "create", "--type", "client", "--project", "shop", "--environment", "production", "--json"], env)
    expect(bound.code, bound.stderr).toBe(0)
    expect(JSON.parse(bound.stdout)).toMatchObject({ type: "client", projectId: "shop", environment: "production" })
    const listed = JSON.parse((await runCli(["keys", "list", "--json"], env)).stdout).data as Array<{ environment: string | null }>
    expect(listed.map((key) => key.environment)).toEqual(["production"])

    const withoutProject = await runCli(["keys", "create", "--type", "server", "--environment", "production"], env)
    expect(withoutProject.code).toBe(2)
    expectOneLineError(withoutProject.stderr, /bound to an environment must be scoped to a project.*--project/)

    const unknown = await runCli(["keys", "create", "--type", "client", "--project", "shop", "--environment", "staging"], env)
    expect(unknown.code).toBe(1)
    expectOneLineError(unknown.stderr, /^error: Environment 'staging' not found in project 'shop'/)
  })
})

describe("configuration errors", () => {
  it("an unreachable PostgreSQL is one line and exit 1", { timeout: CLI_TIMEOUT }, async () => {
    const result = await runCli(["projects", "list"], { DATABASE_URL: "postgres://flagport:secret@127.0.0.1:1/none" })
    expect(result.code).toBe(1)
    expectOneLineError(result.stderr, /^error: .*PostgreSQL/)
    expect(result.stderr).not.toContain("secret")
  })

  it("an unsupported DATABASE_URL is one line and exit 1", { timeout: CLI_TIMEOUT }, async () => {
    const result = await runCli(["projects", "list"], { DATABASE_URL: "mysql://localhost/x" })
    expect(result.code).toBe(1)
    expectOneLineError(result.stderr, /^error: .*DATABASE_URL/)
  })
})
