/**
 * No change leaves the server without an enabled global admin, through real servers on SQLite and
 * PostgreSQL: two admins demoting (or disabling) each other with concurrent requests, each to its
 * own server over the one database (own runtime and connections, as two processes), leave exactly
 * one (one 200, one 409), and a global key cannot demote or disable the last one either. The
 * decision is made inside the write, so the two requests cannot both pass a check made before.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { UserRepository } from "../../src/ports/UserRepository.js"
import { LAST_ADMIN, Users } from "../../src/services/people/Users.js"
import { freshPostgresUrl, freshSqliteFile } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { asPerson, makePerson, type Person } from "../http/people.js"

const databases = {
  sqlite: Effect.map(freshSqliteFile, (file) => `sqlite:${file}`),
  postgres: freshPostgresUrl
}

describe.each(["sqlite", "postgres"] as const)("the last global admin (%s)", (backend) => {
  const scope = Effect.runSync(Scope.make())
  let t: TestServer
  let other: TestServer
  let third: TestServer
  const enabledAdmins = () => t.run(Effect.flatMap(UserRepository, (users) => users.countAdmins()))
  /** Only `count` fresh global admins remain enabled (every earlier one disabled). */
  const onlyAdmins = async (label: string, count: number): Promise<ReadonlyArray<Person>> => {
    const admins = await t.run(Effect.forEach(Array.from({ length: count }, (_, i) => `${label}-${i}-${backend}@example.com`), (email) => makePerson(email, { admin: true })))
    const mine = new Set(admins.map((a) => a.id))
    await t.run(Effect.gen(function* () {
      const users = yield* Users
      for (const user of yield* users.list()) if (user.admin && user.disabledAt === null && !mine.has(user.id)) yield* users.update(user.id, { disabled: true })
    }))
    expect(await enabledAdmins()).toBe(count)
    return admins
  }

  beforeAll(async () => {
    const url = await Effect.runPromise(Scope.extend(databases[backend], scope))
    t = await startServer(StorageLayer.fromDatabaseUrl(url))
    other = await startServer(StorageLayer.fromDatabaseUrl(url), { seeded: t.keys })
    third = await startServer(StorageLayer.fromDatabaseUrl(url), { seeded: t.keys })
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await other?.close()
    await third?.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  it.each([
    ["demoting", { admin: false }],
    ["disabling", { disabled: true }]
  ] as const)("two admins %s each other at once leave one", async (label, patch) => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await onlyAdmins(`${label}-${round}`, 2)
      const answers = await Promise.all([
        asPerson(t.url, a!.cookie, "PATCH", `/v1/users/${b!.id}`, patch),
        asPerson(other.url, b!.cookie, "PATCH", `/v1/users/${a!.id}`, patch)
      ])
      const said = answers.map((r) => `${r.status} ${r.text}`).join(" | ")
      expect(answers.filter((r) => r.status === 200).length, said).toBe(1)
      // The other is refused: inside its write (409) or, when the first had already committed
      // before it was authorized, because its sender is no longer an enabled admin (403, 401).
      const refused = answers.find((r) => r.status !== 200)!
      expect([401, 403, 409], said).toContain(refused.status)
      if (refused.status === 409) expect(refused.text).toContain(LAST_ADMIN)
      expect(await enabledAdmins()).toBe(1)
    }
  })

  // A ring: A changes B, B changes C, C changes A, each request to its own server at the same
  // moment. Every combination of demoting and disabling leaves an enabled global admin, and no
  // one whose own admin flag was taken (committed before their write) takes another's.
  const demote = { admin: false } as const
  const disable = { disabled: true } as const
  it.each([
    ["demote, demote, demote", [demote, demote, demote]],
    ["disable, disable, disable", [disable, disable, disable]],
    ["demote, disable, demote", [demote, disable, demote]],
    ["disable, demote, disable", [disable, demote, disable]]
  ] as const)("a ring of three admins (%s) at once leaves an enabled admin", async (label, patches) => {
    const servers = [t, other, third]
    for (let round = 0; round < 4; round++) {
      const ring = await onlyAdmins(`ring-${label.replace(/\W+/g, "-")}-${round}`, 3)
      const answers = await Promise.all(
        ring.map((actor, i) => asPerson(servers[i]!.url, actor.cookie, "PATCH", `/v1/users/${ring[(i + 1) % 3]!.id}`, patches[i]))
      )
      const said = answers.map((r) => `${r.status} ${r.text}`).join(" | ")
      for (const answer of answers) expect([200, 401, 403, 409], said).toContain(answer.status)
      const remaining = await enabledAdmins()
      expect(remaining, said).toBeGreaterThanOrEqual(1)
      // Each success took exactly one admin away, and some change went through.
      const succeeded = answers.filter((r) => r.status === 200).length
      expect(remaining, said).toBe(3 - succeeded)
      expect(succeeded, said).toBeGreaterThanOrEqual(1)
    }
  })

  it("a global key cannot demote or disable the last enabled admin; with a second one it can", async () => {
    const [last] = await onlyAdmins("last", 1)
    for (const patch of [{ admin: false }, { disabled: true }]) {
      const refused = await request(t.url, "PATCH", `/v1/users/${last!.id}`, { key: t.keys.global, body: patch })
      expect(refused.status, refused.text).toBe(409)
      expect(refused.text).toContain(LAST_ADMIN)
    }
    const listed = (await request(t.url, "GET", "/v1/users", { key: t.keys.global })).body as { data: ReadonlyArray<{ id: string }> }
    expect(listed.data.find((u) => u.id === last!.id)).toMatchObject({ admin: true, disabledAt: null })
    // A disabled admin does not count; a second enabled one does.
    const second = await t.run(makePerson(`second-${backend}@example.com`, { admin: true }))
    expect((await request(t.url, "PATCH", `/v1/users/${second.id}`, { key: t.keys.global, body: { disabled: true } })).status).toBe(200)
    expect((await request(t.url, "PATCH", `/v1/users/${last!.id}`, { key: t.keys.global, body: { admin: false } })).status).toBe(409)
    expect((await request(t.url, "PATCH", `/v1/users/${second.id}`, { key: t.keys.global, body: { disabled: false } })).status).toBe(200)
    expect((await request(t.url, "PATCH", `/v1/users/${last!.id}`, { key: t.keys.global, body: { admin: false } })).status).toBe(200)
    expect(await enabledAdmins()).toBe(1)
  })
})
