/**
 * A server key bound to an environment cannot escape it, through a real server on SQLite and
 * PostgreSQL: it lists, makes or revokes no key wider than itself (unbound, or bound elsewhere) and writes only its
 * own environment's configuration (targeting, a schedule for it; no copy, whose source it may not read; no flag,
 * segment or environment made or deleted, no variations changed), reads only its own
 * where a read names one (targeting, the OpenFeature manifest) and exports no whole project. A refusal
 * changes nothing; the same writes in its own environment succeed.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Messages } from "../../src/domain/auth/Policy.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"
import { asPerson, makePerson } from "./people.js"

describe.each(["sqlite", "postgres"] as const)("environment-bound server keys (%s)", (backend) => {
  let t: TestServer
  const bound = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.boundServerOther, ...(body === undefined ? {} : { body }) })
  const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
  const refused = (reply: { status: number; body: unknown }, message: string) => {
    expect(reply.status).toBe(403)
    expect(reply.body).toEqual({ error: { code: "forbidden", message } })
  }
  const listed = (reply: { status: number; body: unknown }) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return (reply.body as { data: Array<{ id: string; prefix: string; environment: string | null }> }).data
  }
  const targeting = (environment: string) => ({ environment, enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] })

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    expect((await admin("POST", "/v1/projects/p1/flags", { key: "f", type: "string", variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] })).status).toBe(201)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("makes no key wider than itself", async () => {
    const before = ((await admin("GET", "/v1/projects/p1/keys")).body as { data: Array<unknown> }).data.length
    refused(await bound("POST", "/v1/projects/p1/keys", { type: "server", name: "wider" }), Messages.keyWiderThanCaller)
    refused(await bound("POST", "/v1/projects/p1/keys", { type: "server", name: "wider", environment: null }), Messages.keyWiderThanCaller)
    refused(await bound("POST", "/v1/projects/p1/keys", { type: "client", name: "elsewhere", environment: "development" }), Messages.keyWiderThanCaller)
    expect(((await admin("GET", "/v1/projects/p1/keys")).body as { data: Array<unknown> }).data.length).toBe(before)
    const same = await bound("POST", "/v1/projects/p1/keys", { type: "client", name: "same", environment: "production" })
    expect(same.status, JSON.stringify(same.body)).toBe(201)
    expect(same.body).toMatchObject({ environment: "production" })
  })

  it("revokes no key wider than itself", async () => {
    const madeWithSecret = async (body: unknown) => (await admin("POST", "/v1/projects/p1/keys", body)).body as { id: string; key: string }
    const made = async (body: unknown) => (await madeWithSecret(body)).id
    const { id: unbound, key: unboundSecret } = await madeWithSecret({ type: "client", name: "unbound" })
    const { id: development, key: developmentSecret } = await madeWithSecret({ type: "server", name: "dev", environment: "development" })
    const production = await made({ type: "client", name: "prod", environment: "production" })
    refused(await bound("DELETE", `/v1/projects/p1/keys/${unbound}`), Messages.revokeWiderThanCaller)
    refused(await bound("DELETE", `/v1/projects/p1/keys/${development}`), Messages.revokeWiderThanCaller)
    const live = ((await admin("GET", "/v1/projects/p1/keys")).body as { data: Array<{ id: string; revokedAt: string | null }> }).data
    expect(live.filter((key) => key.id === unbound || key.id === development).map((key) => key.revokedAt)).toEqual([null, null])
    // Each refused key keeps working: the development key manages, the unbound client key evaluates development.
    expect((await request(t.url, "GET", "/v1/projects/p1/flags", { key: developmentSecret })).status).toBe(200)
    expect((await request(t.url, "GET", "/v1/config?environment=development", { key: unboundSecret })).status).toBe(200)
    expect((await bound("DELETE", `/v1/projects/p1/keys/${production}`)).status).toBe(204)
    // Not itself, though it sees itself: 409 as for any key, and it still works.
    const itself = listed(await bound("GET", "/v1/projects/p1/keys")).find((key) => key.prefix === t.keys.boundServerOther.slice(0, 8))
    expect(itself).toBeDefined()
    const selfRevocation = await bound("DELETE", `/v1/projects/p1/keys/${itself!.id}`)
    expect(selfRevocation.status).toBe(409)
    expect((selfRevocation.body as { error: { code: string } }).error.code).toBe("conflict")
    expect((await bound("GET", "/v1/projects/p1/keys")).status).toBe(200)
  })

  it("lists only the keys bound to its own environment, itself among them; unbound keys and people list every key", async () => {
    const made = async (body: unknown) => ((await admin("POST", "/v1/projects/p1/keys", body)).body as { id: string }).id
    const unbound = await made({ type: "server", name: "listed-unbound" })
    const development = await made({ type: "client", name: "listed-dev", environment: "development" })
    const production = await made({ type: "server", name: "listed-prod", environment: "production" })
    const all = listed(await admin("GET", "/v1/projects/p1/keys"))
    expect(all.map((key) => key.id)).toEqual(expect.arrayContaining([unbound, development, production]))
    const seen = listed(await bound("GET", "/v1/projects/p1/keys"))
    expect(seen.map((key) => key.id)).toEqual(all.filter((key) => key.environment === "production").map((key) => key.id))
    expect(seen.map((key) => key.id)).toContain(production)
    expect(seen.map((key) => key.prefix)).toContain(t.keys.boundServerOther.slice(0, 8))
    expect(seen.map((key) => key.id)).not.toContain(unbound)
    expect(seen.map((key) => key.id)).not.toContain(development)
    // Nor does its audit log show the keys it does not list (their names and prefixes are in the entries).
    const audited = async (caller: typeof bound, id: string) => {
      const reply = await caller("GET", `/v1/projects/p1/audit?resourceType=key&resourceKey=${id}`)
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      return (reply.body as { data: Array<{ action: string }> }).data.map((audit) => audit.action)
    }
    expect(await audited(bound, unbound)).toEqual([])
    expect(await audited(bound, development)).toEqual([])
    expect(await audited(bound, production)).toEqual(["key.created"])
    expect(await audited(admin, unbound)).toEqual(["key.created"])
    // The project's own unbound key, and a person who administers the project: every key, as before
    // (ids compared: the callers' own `lastUsedAt` moves as they call).
    const ids = (keys: ReadonlyArray<{ id: string }>) => keys.map((key) => key.id)
    expect(ids(listed(await request(t.url, "GET", "/v1/projects/p1/keys", { key: t.keys.scoped })))).toEqual(ids(all))
    const person = await t.run(makePerson("keys-admin@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
    expect(ids(listed(await asPerson(t.url, person.cookie, "GET", "/v1/projects/p1/keys")))).toEqual(ids(all))
  })

  it("writes only its own environment's configuration: targeting, schedules; copies nothing (it reads its source)", async () => {
    const configOf = async (environment: string) =>
      ((await admin("GET", "/v1/projects/p1/flags/f")).body as { configs: Array<{ environmentKey: string; enabled: boolean }> }).configs.find((c) => c.environmentKey === environment)
    refused(await bound("PUT", "/v1/projects/p1/flags/f/targeting", targeting("development")), Messages.environmentMismatch)
    refused(await bound("POST", "/v1/projects/p1/environments/development/copy", { from: "production" }), Messages.environmentMismatch)
    // Copying reads the source: development's targeting copied into production would be read there.
    refused(await bound("POST", "/v1/projects/p1/environments/production/copy", { from: "development" }), Messages.environmentMismatch)
    refused(await bound("POST", "/v1/projects/p1/flags/f/schedules", { environment: "development", at: "2999-01-01T09:00:00Z", targeting: targeting("development") }), Messages.environmentMismatch)
    expect((await configOf("development"))?.enabled).toBe(false)
    expect(((await admin("GET", "/v1/projects/p1/flags/f/schedules")).body as { data: Array<unknown> }).data).toEqual([])
    // Its own environment: allowed. (No copy is: its source is always another environment.)
    expect((await bound("PUT", "/v1/projects/p1/flags/f/targeting", targeting("production"))).status).toBe(200)
    expect((await bound("POST", "/v1/projects/p1/flags/f/schedules", { environment: "production", at: "2999-01-01T09:00:00Z", targeting: targeting("production") })).status).toBe(201)
  })

  it("changes nothing every environment serves: no flag, segment or environment made or deleted, no variations changed; an apply names only its own environment", async () => {
    const everyEnvironment = Messages.boundKeyWritesEveryEnvironment("production")
    expect((await admin("POST", "/v1/projects/p1/segments", { key: "s", name: "S", conditions: [] })).status).toBe(201)
    const before = (await admin("GET", "/v1/projects/p1/flags/f")).body as { version: number; variations: unknown }
    const variations = [{ key: "a", value: "A" }, { key: "b", value: "B" }]
    refused(await bound("DELETE", "/v1/projects/p1/flags/f"), everyEnvironment)
    refused(await bound("PATCH", "/v1/projects/p1/flags/f", { variations: [{ key: "a", value: "A2" }, { key: "b", value: "B" }] }), everyEnvironment)
    refused(await bound("PATCH", "/v1/projects/p1/segments/s", { conditions: [{ attribute: "plan", operator: "in", values: ["x"] }] }), everyEnvironment)
    refused(await bound("DELETE", "/v1/projects/p1/segments/s"), everyEnvironment)
    refused(await bound("POST", "/v1/projects/p1/flags", { key: "made-by-bound", type: "string", variations }), everyEnvironment)
    refused(await bound("POST", "/v1/projects/p1/segments", { key: "made-by-bound", name: "S", conditions: [] }), everyEnvironment)
    refused(await bound("POST", "/v1/projects/p1/environments", { key: "qa", name: "QA" }), everyEnvironment)
    expect((await admin("GET", "/v1/projects/p1/flags/made-by-bound")).status).toBe(404)
    expect((await admin("GET", "/v1/projects/p1/segments/made-by-bound")).status).toBe(404)
    expect(((await admin("GET", "/v1/projects/p1/environments")).body as { data: Array<{ key: string }> }).data.map((e) => e.key)).not.toContain("qa")
    // Development's targeting as it is: the plan would change nothing, so a 200 would confirm the guess.
    const guess = { key: "development", enabled: false, defaultVariationKey: "a", offVariationKey: "b" }
    refused(await bound("POST", "/v1/projects/p1/apply?dryRun=true", { project: { id: "p1" }, flags: [{ key: "f", type: "string", variations, environments: [guess] }] }), Messages.environmentMismatch)
    refused(await bound("POST", "/v1/projects/p1/apply?dryRun=true&prune=true", { project: { id: "p1" }, flags: [] }), everyEnvironment)
    refused(await bound("POST", "/v1/projects/p1/apply?dryRun=true", { project: { id: "p1" }, flags: [{ key: "f", type: "string", variations: [{ key: "a", value: "A3" }, { key: "b", value: "B" }] }] }), everyEnvironment)
    refused(await bound("POST", "/v1/projects/p1/apply?dryRun=true", { project: { id: "p1" }, flags: [{ key: "f", type: "string", variations }, { key: "new", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }] }), everyEnvironment)
    const after = (await admin("GET", "/v1/projects/p1/flags/f")).body as { version: number; variations: unknown }
    expect({ version: after.version, variations: after.variations }).toEqual({ version: before.version, variations: before.variations })
    expect(((await admin("GET", "/v1/projects/p1/segments/s")).body as { conditions: Array<unknown> }).conditions).toEqual([])
    // Its name, the variations sent back as they are (keys in another order), and its own environment's targeting in a file: allowed.
    const renamed = await bound("PATCH", "/v1/projects/p1/flags/f", { name: "Renamed by production", variations: [{ value: "A", key: "a" }, { key: "b", value: "B" }] })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
    expect((renamed.body as { variations: unknown }).variations).toEqual(before.variations)
    const own = await bound("POST", "/v1/projects/p1/apply?dryRun=true", { project: { id: "p1" }, flags: [{ key: "f", type: "string", variations, environments: [{ ...guess, key: "production" }] }] })
    expect(own.status, JSON.stringify(own.body)).toBe(200)
  })

  it("reads only its own environment's configuration where a read names one; no whole-project export", async () => {
    refused(await bound("GET", "/v1/projects/p1/flags/f/targeting?environment=development"), Messages.environmentMismatch)
    refused(await bound("GET", "/v1/projects/p1/export"), Messages.environmentMismatch)
    refused(await bound("GET", "/v1/projects/p1/export?format=json"), Messages.environmentMismatch)
    refused(await bound("GET", "/v1/projects/p1/export?format=openfeature-manifest"), Messages.environmentMismatch)
    refused(await bound("GET", "/v1/projects/p1/export?format=openfeature-manifest&environment=development"), Messages.environmentMismatch)
    expect((await bound("GET", "/v1/projects/p1/flags/f/targeting?environment=production")).status).toBe(200)
    expect((await bound("GET", "/v1/projects/p1/export?format=openfeature-manifest&environment=production")).status).toBe(200)
    expect((await admin("GET", "/v1/projects/p1/export")).status).toBe(200)
  })
})
