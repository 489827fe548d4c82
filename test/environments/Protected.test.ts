/**
 * Protected environments (issue 28, stage 1) through a real server on SQLite and PostgreSQL:
 * `PATCH .../environments/{e}` sets `name`, `protected` and `requiredApprovals` (validated,
 * audited, shown by every environment answer); in a protected environment a person's direct
 * writes (targeting, schedules made or cancelled, copies into it) are refused with 409
 * `change_request_required` by the use cases themselves (so the CLI and an Effect host running as
 * a person are refused alike), a person's schedule made before the protection fails when it runs,
 * and server keys keep writing (their audit entries name the key).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { type Actor, CurrentActor } from "../../src/domain/audit/Actor.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { EnvironmentCopy } from "../../src/services/projects/EnvironmentCopy.js"
import { Flags } from "../../src/services/flags/Flags.js"
import * as Scheduler from "../../src/services/schedules/Scheduler.js"
import { Schedules } from "../../src/services/schedules/Schedules.js"
import type { Storage } from "../../adapters/app/Composition.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { asPerson, makePerson, type Person } from "../http/people.js"

const PATH = "/v1/projects/p1/environments/production"
const REFUSED = "Changes to production need an approved change request"
const targeting = (enabled: boolean, environment = "production") => ({ environment, enabled, defaultVariationKey: "a", offVariationKey: "b", rules: [] })

describe.each(["sqlite", "postgres"] as const)("protected environments (%s)", (backend) => {
  let t: TestServer
  const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
  /** Edna, an editor of p1: a real user, since a person's schedule runs only while she may still write. */
  let edna: Actor
  /** Runs a use case as Edna, a person (as the HTTP adapter would after her session). */
  const asEdna = <A, E>(effect: Effect.Effect<A, E, Storage>) => t.run(Effect.either(Effect.provideService(effect, CurrentActor, edna)))
  const refusedWith = (result: Either.Either<unknown, { readonly _tag: string; readonly message: string }>) => {
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect({ tag: result.left._tag, message: result.left.message }).toEqual({ tag: "ChangeRequestRequired", message: REFUSED })
  }

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    const person = await t.run(makePerson("edna@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
    edna = { type: "user", userId: person.id, email: person.email }
    expect((await admin("POST", "/v1/projects/p1/flags", { key: "f", type: "string", variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] })).status).toBe(201)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("every environment answer shows protected (false) and requiredApprovals (1) by default", async () => {
    const listed = (await admin("GET", "/v1/projects/p1/environments")).body as { data: Array<Record<string, unknown>> }
    for (const environment of listed.data) expect(environment).toMatchObject({ protected: false, requiredApprovals: 1 })
    const made = await admin("POST", "/v1/projects/p1/environments", { key: "staging", name: "Staging" })
    expect(made.status, made.text).toBe(201)
    expect(made.body).toMatchObject({ key: "staging", protected: false, requiredApprovals: 1 })
  })

  it("PATCH sets name, protected and requiredApprovals, keeps the rest, validates, and is audited", async () => {
    const patched = await admin("PATCH", PATH, { protected: true, requiredApprovals: 2, name: "Prod" })
    expect(patched.status, patched.text).toBe(200)
    expect(patched.body).toMatchObject({ key: "production", name: "Prod", clientConfig: "full", protected: true, requiredApprovals: 2 })
    const kept = await admin("PATCH", PATH, { name: "Production" })
    expect(kept.body).toMatchObject({ name: "Production", protected: true, requiredApprovals: 2 })
    const listed = (await admin("GET", "/v1/projects/p1/environments")).body as { data: Array<{ key: string; protected: boolean; requiredApprovals: number }> }
    expect(listed.data.find((e) => e.key === "production")).toMatchObject({ protected: true, requiredApprovals: 2 })
    for (const body of [{ requiredApprovals: 0 }, { requiredApprovals: 6 }, { requiredApprovals: 1.5 }, { protected: "yes" }, { name: "" }]) {
      const reply = await admin("PATCH", PATH, body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(reply.body).toMatchObject({ error: { code: "invalid_request" } })
    }
    // Out of range says the range (it once said "must be a string, not the number 0").
    for (const requiredApprovals of [0, 6]) {
      expect((await admin("PATCH", PATH, { requiredApprovals })).body).toEqual({
        error: { code: "invalid_request", message: "The request is invalid.", details: [{ path: "requiredApprovals", message: "must be a whole number from 1 to 5" }] }
      })
    }
    const audit = (await admin("GET", "/v1/projects/p1/audit?resourceType=environment&resourceKey=production")).body as { data: Array<{ action: string; after: Record<string, unknown> }> }
    expect(audit.data[0]).toMatchObject({ action: "environment.updated", after: { protected: true, requiredApprovals: 2 } })
  })

  it("a person's targeting write into the protected environment is refused; elsewhere it is not", async () => {
    const flags = (targetingInput: ReturnType<typeof targeting>) => Effect.flatMap(Flags, (f) => f.replaceTargeting("p1", "f", targetingInput))
    const before = (await admin("GET", "/v1/projects/p1/flags/f")).body as { version: number }
    refusedWith(await asEdna(flags(targeting(true))))
    expect(((await admin("GET", "/v1/projects/p1/flags/f")).body as { version: number }).version).toBe(before.version)
    // Unknown environments are still the 404 they were.
    const unknown = await asEdna(flags(targeting(true, "nowhere")))
    expect(Either.isLeft(unknown) && unknown.left._tag).toBe("ResourceNotFound")
    const development = await asEdna(flags(targeting(true, "development")))
    expect(Either.isRight(development)).toBe(true)
  })

  it("a person's schedules and copies into it are refused; a person's schedule made before the protection fails when it runs", async () => {
    await admin("PATCH", PATH, { protected: false })
    const made = await asEdna(Effect.flatMap(Schedules, (s) => s.create("p1", "f", { environment: "production", at: "2020-01-01T00:00:00Z", targeting: targeting(true) })))
    expect(Either.isRight(made)).toBe(true)
    await admin("PATCH", PATH, { protected: true })

    refusedWith(await asEdna(Effect.flatMap(Schedules, (s) => s.create("p1", "f", { environment: "production", at: "2030-01-01T00:00:00Z", targeting: targeting(true) }))))
    refusedWith(await asEdna(Effect.flatMap(EnvironmentCopy, (c) => c.copy("p1", "production", { from: "development" }))))
    if (Either.isRight(made)) {
      refusedWith(await asEdna(Effect.flatMap(Schedules, (s) => s.cancel("p1", "f", made.right.id))))
      const outcomes = await t.run(Scheduler.tick("test-scheduler"))
      expect(outcomes).toEqual(["failed"])
      const schedules = (await admin("GET", "/v1/projects/p1/flags/f/schedules")).body as { data: Array<{ id: string; status: string; reason?: string }> }
      expect(schedules.data.find((s) => s.id === made.right.id)).toMatchObject({ status: "failed", reason: REFUSED })
    }
    // Copies out of the protected environment are not writes into it.
    const copyOut = await asEdna(Effect.flatMap(EnvironmentCopy, (c) => c.copy("p1", "development", { from: "production" })))
    expect(Either.isRight(copyOut)).toBe(true)
  })

  it("server keys keep writing into it, and their audit entries name the key", async () => {
    const put = await request(t.url, "PUT", "/v1/projects/p1/flags/f/targeting", { key: t.keys.scoped, body: targeting(true) })
    expect(put.status, put.text).toBe(200)
    const copy = await request(t.url, "POST", "/v1/projects/p1/environments/production/copy", { key: t.keys.global, body: { from: "development" } })
    expect(copy.status, copy.text).toBe(200)
    const schedule = await request(t.url, "POST", "/v1/projects/p1/flags/f/schedules", { key: t.keys.scoped, body: { environment: "production", at: "2030-01-01T00:00:00Z", targeting: targeting(false) } })
    expect(schedule.status, schedule.text).toBe(201)
    const entries = await t.run(Effect.flatMap(Audit, (a) => a.list("p1", { resourceType: "flag", resourceKey: "f", environment: "production" })))
    expect(entries.data[0]?.actor).toMatchObject({ type: "key" })
    expect(entries.data[0]?.actor.keyId).toBeDefined()
  })

  it("over HTTP, a signed-in editor's PUT, schedule and copy into it are 409 change_request_required; in development they pass", async () => {
    const editor: Person = await t.run(makePerson("editor-protected@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
    const put = await asPerson(t.url, editor.cookie, "PUT", "/v1/projects/p1/flags/f/targeting", targeting(true))
    expect(put.status, put.text).toBe(409)
    expect(put.body).toEqual({ error: { code: "change_request_required", message: REFUSED } })
    const schedule = await asPerson(t.url, editor.cookie, "POST", "/v1/projects/p1/flags/f/schedules", { environment: "production", at: "2030-01-01T00:00:00Z", targeting: targeting(true) })
    expect(schedule.body).toEqual({ error: { code: "change_request_required", message: REFUSED } })
    const copy = await asPerson(t.url, editor.cookie, "POST", "/v1/projects/p1/environments/production/copy", { from: "development" })
    expect(copy.body).toEqual({ error: { code: "change_request_required", message: REFUSED } })
    const development = await asPerson(t.url, editor.cookie, "PUT", "/v1/projects/p1/flags/f/targeting", targeting(true, "development"))
    expect(development.status, development.text).toBe(200)
    // Protecting is the project admin's: an editor is refused.
    expect((await asPerson(t.url, editor.cookie, "PATCH", PATH, { protected: false })).status).toBe(403)
  })

  it("the CLI (an operator on the host) is not a person: it writes directly", async () => {
    const cli = await t.run(Effect.either(Effect.provideService(Effect.flatMap(Flags, (f) => f.replaceTargeting("p1", "f", targeting(false))), CurrentActor, { type: "cli" })))
    expect(Either.isRight(cli)).toBe(true)
  })
})
