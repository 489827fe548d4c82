/**
 * The failed sign-in limit under simultaneous attempts, across two server processes on one
 * database (an in-process server and a `flagport serve` child), on SQLite and PostgreSQL. Each
 * attempt is counted in the database before its password is verified, so of any number of
 * simultaneous wrong passwords at most 10 are verified (401), the rest are refused (429), and the
 * right password sent afterwards within the window is refused too (docs/guide/people.md).
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { SIGN_IN_FAILURE_LIMIT } from "../../src/domain/people/SignInLimit.js"
import { startServer as startProcess } from "../cli/Process.js"
import { freshPostgresUrl, freshSqliteFile } from "../fixtures/databases.js"
import { request, startServer } from "./fixtures.js"
import { makePerson, PASSWORD } from "./people.js"

const TIMEOUT = 180_000

let scope = Effect.runSync(Scope.make())
const closers: Array<() => Promise<unknown> | void> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  scope = Effect.runSync(Scope.make())
})

const databaseUrl = (backend: "sqlite" | "postgres") =>
  Effect.runPromise(
    Scope.extend(backend === "sqlite" ? Effect.map(freshSqliteFile, (file) => `sqlite:${file}`) : freshPostgresUrl, scope)
  )

const login = (base: string, email: string, password: string) => request(base, "POST", "/v1/auth/login", { body: { email, password } })

describe.each(["sqlite", "postgres"] as const)("simultaneous sign-ins on %s, two processes", (backend) => {
  it("30 simultaneous wrong passwords: 10 are verified (401), 20 refused (429, or 503 for a full hashing queue); then the right one is refused", { timeout: TIMEOUT }, async () => {
    const url = await databaseUrl(backend)
    const first = await startServer(StorageLayer.fromDatabaseUrl(url))
    closers.push(first.close)
    const second = await startProcess(["serve"], { DATABASE_URL: url })
    closers.push(() => {
      if (second.child.exitCode === null) second.child.kill("SIGKILL")
    })
    await first.run(makePerson("besieged@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))

    const bases = [first.url, second.baseUrl]
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(bases[i % 2]!, "besieged@example.com", `wrong password number ${i}`))
    )
    const statuses = replies.map((reply) => reply.status)
    expect(statuses.filter((s) => s === 401).length, JSON.stringify(statuses)).toBe(SIGN_IN_FAILURE_LIMIT)
    // The others: 429, or 503 when the process's password hashing queue was full (SignInGuard:
    // 1 running and 8 waiting each, so of 15 at once per process some are turned away before
    // they are counted).
    expect(statuses.filter((s) => s === 429 || s === 503).length, JSON.stringify(statuses)).toBe(30 - SIGN_IN_FAILURE_LIMIT)

    for (const base of bases) {
      const right = await login(base, "besieged@example.com", PASSWORD)
      expect(right.status, right.text).toBe(429)
    }
  })

  it("the right password among 30 simultaneous wrong ones: at most 10 verifications in all", { timeout: TIMEOUT }, async () => {
    const url = await databaseUrl(backend)
    const first = await startServer(StorageLayer.fromDatabaseUrl(url))
    closers.push(first.close)
    await first.run(makePerson("crowded@example.com"))
    const attempts = [
      ...Array.from({ length: 15 }, (_, i) => login(first.url, "crowded@example.com", `wrong password number ${i}`)),
      login(first.url, "crowded@example.com", PASSWORD),
      ...Array.from({ length: 15 }, (_, i) => login(first.url, "crowded@example.com", `wrong password number ${15 + i}`))
    ]
    const statuses = (await Promise.all(attempts)).map((reply) => reply.status)
    const right = statuses[15]!
    const wrong = statuses.filter((_, i) => i !== 15)
    // 503: the hashing queue was full (SignInGuard), nothing verified or counted.
    expect([200, 429, 503]).toContain(right)
    // Each verification is one answer other than 429; a success forgets the failures before it,
    // so after it at most 10 more.
    const verified = wrong.filter((s) => s === 401).length + (right === 200 ? 1 : 0)
    expect(verified, JSON.stringify(statuses)).toBeLessThanOrEqual(right === 200 ? 2 * SIGN_IN_FAILURE_LIMIT : SIGN_IN_FAILURE_LIMIT)
    expect(wrong.every((s) => s === 401 || s === 429 || s === 503), JSON.stringify(statuses)).toBe(true)
  })
})
