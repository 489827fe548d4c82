/**
 * `flagport users ...` as the real binary, on a fresh SQLite file and a fresh PostgreSQL database:
 * setup links, a password from standard input, the one-line errors, and what the commands did as
 * the services see it (the same database opened in this process).
 */
import { spawn } from "node:child_process"
import { Effect, ManagedRuntime, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { Sessions } from "../../src/services/people/Sessions.js"
import { SignIn } from "../../src/services/people/SignIn.js"
import { Users } from "../../src/services/people/Users.js"
import { backends } from "./Databases.js"
import { BIN, childEnv, type CliResult, keyLines, ROOT, runCli } from "./Process.js"

const TIMEOUT = 180_000
const PASSWORD = "correct horse battery staple"
const SETUP = /^SETUP_URL=(http:\/\/localhost:8080|https:\/\/flags\.example\.com)\/ui\/setup#token=([A-Za-z0-9_-]{43})$/m

/** Runs `flagport ...args` with `input` on standard input. */
const runWithInput = (args: ReadonlyArray<string>, input: string, env: Record<string, string>): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv(env), stdio: ["pipe", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(input)
  })

const oneLineError = (result: CliResult, fragment: string | RegExp) => {
  const lines = result.stderr.trim().split("\n").filter((line) => line.trim() !== "")
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(fragment)
}

/** The services over the database the commands wrote, in this process. */
const withApp = async <A>(url: string, use: Effect.Effect<A, unknown, Users | SignIn | Sessions>): Promise<A> => {
  const runtime = ManagedRuntime.make(StorageLayer.fromDatabaseUrl(url, { listen: false }))
  try {
    return await runtime.runPromise(use)
  } finally {
    await runtime.dispose()
  }
}

describe.each(backends)("flagport users on $name", (backend) => {
  it("create prints a setup link, or takes a password from standard input; list, disable, enable", { timeout: TIMEOUT }, async () => {
    const env = { DATABASE_URL: await backend.fresh() }
    expect((await runCli(["migrate"], env)).code).toBe(0)

    const invited = await runCli(["users", "create", "--email", "Edna@Example.com", "--name", "Edna", "--admin"], env)
    expect(invited.code).toBe(0)
    expect(Object.keys(keyLines(invited.stdout))).toEqual(["USER_ID", "SETUP_URL"])
    const token = SETUP.exec(invited.stdout)![2]!
    expect(SETUP.exec(invited.stdout)![1]).toBe("http://localhost:8080")

    const automated = await runWithInput(["users", "create", "--email", "ci@example.com", "--password-stdin", "--json"], `${PASSWORD}\n`, env)
    expect(automated.code).toBe(0)
    const created = JSON.parse(automated.stdout) as { user: { id: string; email: string; admin: boolean }; setupUrl?: string }
    expect(created.user).toMatchObject({ email: "ci@example.com", admin: false })
    expect(created.setupUrl).toBeUndefined()
    expect(automated.stdout).not.toContain(PASSWORD)

    const taken = await runCli(["users", "create", "--email", "edna@EXAMPLE.com"], env)
    expect(taken.code).toBe(1)
    oneLineError(taken, /^error: A user with the email 'edna@EXAMPLE.com' already exists$/)
    const short = await runWithInput(["users", "create", "--email", "short@example.com", "--password-stdin"], "short\n", env)
    expect(short.code).toBe(1)
    oneLineError(short, /password: must be at least 12 characters/)
    const missing = await runCli(["users", "create"], env)
    expect(missing.code).toBe(2)

    const listed = await runCli(["users", "list", "--json"], env)
    expect((JSON.parse(listed.stdout) as { data: Array<{ email: string }> }).data.map((u) => u.email)).toEqual(["Edna@Example.com", "ci@example.com"])
    const table = await runCli(["users", "list"], env)
    expect(table.stdout).toMatch(/^ID\s+EMAIL\s+NAME\s+ADMIN\s+SSO\s+CREATED\s+LAST SIGN-IN\s+DISABLED$/m)
    expect(table.stdout).toMatch(/Edna@Example\.com\s+Edna\s+yes\s+no/)

    // The link sets Edna's password; the piped password signs ci in.
    await withApp(
      env.DATABASE_URL,
      Effect.gen(function* () {
        yield* (yield* Users).setup(token, "edna's own password")
        expect((yield* (yield* SignIn).withPassword("edna@example.com", "edna's own password")).user.admin).toBe(true)
        expect((yield* (yield* SignIn).withPassword("ci@example.com", PASSWORD)).user.id).toBe(created.user.id)
      })
    )

    const session = await withApp(env.DATABASE_URL, Effect.flatMap(Sessions, (s) => s.start(created.user.id)))
    const disabled = await runCli(["users", "disable", "CI@example.com"], env)
    expect(disabled.code).toBe(0)
    expect(disabled.stdout.trim()).toBe(`DISABLED=${created.user.id}`)
    await withApp(
      env.DATABASE_URL,
      Effect.gen(function* () {
        expect(yield* (yield* Sessions).authenticate(session.token)).toEqual(Option.none())
        expect((yield* Effect.flip((yield* SignIn).withPassword("ci@example.com", PASSWORD)))._tag).toBe("Unauthenticated")
      })
    )
    const enabled = await runCli(["users", "enable", created.user.id, "--json"], env)
    expect(JSON.parse(enabled.stdout)).toMatchObject({ id: created.user.id, disabledAt: null })
    const unknown = await runCli(["users", "disable", "nobody@example.com"], env)
    expect(unknown.code).toBe(1)
    oneLineError(unknown, /^error: No user with the email 'nobody@example.com' in (sqlite|postgres):/)
  })

  it("unlock: the person's failed sign-ins from every address are forgotten; the right password gets in at once", { timeout: TIMEOUT }, async () => {
    const env = { DATABASE_URL: await backend.fresh() }
    expect((await runCli(["migrate"], env)).code).toBe(0)
    const created = await runWithInput(["users", "create", "--email", "Locked@example.com", "--password-stdin"], PASSWORD, env)
    const id = keyLines(created.stdout).USER_ID!
    await withApp(
      env.DATABASE_URL,
      Effect.gen(function* () {
        const signIn = yield* SignIn
        for (let i = 0; i < 10; i++) yield* Effect.flip(signIn.withPassword("locked@example.com", `wrong password ${i}`, "203.0.113.9"))
        expect((yield* Effect.flip(signIn.withPassword("locked@example.com", PASSWORD, "203.0.113.9")))._tag).toBe("RateLimited")
      })
    )
    const unlocked = await runCli(["users", "unlock", "locked@example.com"], env)
    expect(unlocked.code, unlocked.stderr).toBe(0)
    expect(keyLines(unlocked.stdout)).toEqual({ UNLOCKED: id })
    await withApp(
      env.DATABASE_URL,
      Effect.gen(function* () {
        expect((yield* (yield* SignIn).withPassword("locked@example.com", PASSWORD, "203.0.113.9")).user.id).toBe(id)
      })
    )
    expect(JSON.parse((await runCli(["users", "unlock", id, "--json"], env)).stdout)).toMatchObject({ id, email: "Locked@example.com" })
  })

  it("allow-sso-link: a global admin's account is linked at its next single sign-on, once; refused before", { timeout: TIMEOUT }, async () => {
    const env = { DATABASE_URL: await backend.fresh() }
    expect((await runCli(["migrate"], env)).code).toBe(0)
    const created = await runWithInput(["users", "create", "--email", "boss@example.com", "--admin", "--password-stdin"], PASSWORD, env)
    const id = keyLines(created.stdout).USER_ID!
    const sso = (subject: string) => ({ issuer: "https://id.example.com", subject, email: "boss@example.com", emailVerified: true })
    const policy = { allowedDomains: [], defaultRole: "none" as const }
    const tagOf = (subject: string) =>
      withApp(env.DATABASE_URL, Effect.map(Effect.either(Effect.flatMap(SignIn, (s) => s.withSso(sso(subject), policy))), (r) => r._tag === "Right" ? r.right.id : r.left._tag))
    expect(await tagOf("first")).toBe("Forbidden")
    const allowed = await runCli(["users", "allow-sso-link", "boss@example.com"], env)
    expect(allowed.code, allowed.stderr).toBe(0)
    const lines = keyLines(allowed.stdout)
    expect(lines.SSO_LINK_ALLOWED).toBe(id)
    expect(Date.parse(lines.EXPIRES_AT!)).toBeGreaterThan(Date.now() + 71 * 3600_000)
    expect(await tagOf("first")).toBe(id)
    expect(await tagOf("second")).toBe("Forbidden")
    expect(JSON.parse((await runCli(["users", "allow-sso-link", id, "--json"], env)).stdout)).toMatchObject({ user: { id }, expiresAt: expect.any(String) })
  })

  it("reset-password: a new link at FLAGPORT_PUBLIC_URL, the old password gone", { timeout: TIMEOUT }, async () => {
    const env = { DATABASE_URL: await backend.fresh() }
    expect((await runCli(["migrate"], env)).code).toBe(0)
    const created = await runWithInput(["users", "create", "--email", "ops@example.com", "--password-stdin"], PASSWORD, env)
    expect(created.code).toBe(0)
    const id = keyLines(created.stdout).USER_ID!
    const reset = await runCli(["users", "reset-password", "ops@example.com"], { ...env, FLAGPORT_PUBLIC_URL: "https://flags.example.com/" })
    expect(reset.code).toBe(0)
    expect(Object.keys(keyLines(reset.stdout))).toEqual(["SETUP_URL"])
    expect(SETUP.exec(reset.stdout)![1]).toBe("https://flags.example.com")
    const json = await runCli(["users", "reset-password", id, "--json"], env)
    const { userId, setupUrl } = JSON.parse(json.stdout) as { userId: string; setupUrl: string }
    expect(userId).toBe(id)
    await withApp(
      env.DATABASE_URL,
      Effect.gen(function* () {
        expect((yield* Effect.flip((yield* SignIn).withPassword("ops@example.com", PASSWORD)))._tag).toBe("Unauthenticated")
        // The first link was voided by the second.
        expect((yield* Effect.flip((yield* Users).setup(SETUP.exec(reset.stdout)![2]!, PASSWORD)))._tag).toBe("InvalidRequest")
        yield* (yield* Users).setup(setupUrl.split("#token=")[1]!, `${PASSWORD} 2`)
        expect((yield* (yield* SignIn).withPassword("ops@example.com", `${PASSWORD} 2`)).user.id).toBe(id)
      })
    )
  })
})
