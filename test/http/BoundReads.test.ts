/**
 * What a server key bound to production reads through the management API, through a real server
 * on SQLite: flags with production's configuration only (the answer keeps its shape), production's
 * schedules, change requests, audit entries and events only (no unbound key's), 403 where a read names development
 * (its insights, its pending schedules, its audit log, one of its change requests, a copy from it),
 * no webhooks. People and unbound keys read every environment, as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Messages } from "../../src/domain/auth/Policy.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"
import { type People, seedPeople } from "./people.js"
import { openStream } from "./sse.js"

interface Config { readonly environmentKey: string; readonly rules: ReadonlyArray<{ readonly id: string }> }
interface FlagAnswer { readonly key: string; readonly configs: ReadonlyArray<Config> }

describe("environment-bound server keys read only their environment (sqlite)", () => {
  let t: TestServer
  let people: People
  const bound = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.boundServerOther, ...(body === undefined ? {} : { body }) })
  const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
  const viewer = (path: string) => request(t.url, "GET", path, { headers: { cookie: people.viewer.cookie, origin: t.url } })
  const refused = (reply: { status: number; body: unknown }) => {
    expect({ status: reply.status, body: reply.body }).toEqual({ status: 403, body: { error: { code: "forbidden", message: Messages.environmentMismatch } } })
  }
  const targeting = (environment: string, ruleId: string) => ({
    environment,
    enabled: true,
    defaultVariationKey: "a",
    offVariationKey: "b",
    rules: [{ id: ruleId, conditions: [{ attribute: "plan", operator: "in", values: [`${environment}-plan`] }], variationKey: "b" }]
  })
  const ok = async (reply: Promise<{ status: number; text: string; body: unknown }>, status: number) => {
    const answer = await reply
    expect(answer.status, answer.text).toBe(status)
    return answer.body
  }
  const environmentsOf = (flag: FlagAnswer) => flag.configs.map((config) => config.environmentKey)
  let developmentRequest = ""
  let productionRequest = ""

  beforeAll(async () => {
    t = await startServer(freshStorage("sqlite"))
    people = await t.run(seedPeople)
    await ok(admin("POST", "/v1/projects/p1/flags", { key: "f", type: "string", variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] }), 201)
    await ok(admin("PUT", "/v1/projects/p1/flags/f/targeting", targeting("development", "dev-secret-rule")), 200)
    await ok(admin("PUT", "/v1/projects/p1/flags/f/targeting", targeting("production", "prod-rule")), 200)
    for (const environment of ["development", "production"]) {
      await ok(admin("POST", "/v1/projects/p1/flags/f/schedules", { environment, at: "2999-01-01T09:00:00Z", targeting: targeting(environment, `${environment}-later`) }), 201)
    }
    const open = async (environment: string) =>
      ((await ok(admin("POST", "/v1/projects/p1/change-requests", { title: environment, environment, changes: [{ flagKey: "f", targeting: targeting(environment, `${environment}-proposed`) }] }), 201)) as { id: string }).id
    developmentRequest = await open("development")
    productionRequest = await open("production")
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("a flag and the flag list answer with production's configuration only; people and unbound keys see both", async () => {
    const flag = (await ok(bound("GET", "/v1/projects/p1/flags/f"), 200)) as FlagAnswer
    expect(environmentsOf(flag)).toEqual(["production"])
    expect(flag.configs[0]!.rules.map((rule) => rule.id)).toEqual(["prod-rule"])
    const listed = ((await ok(bound("GET", "/v1/projects/p1/flags"), 200)) as { data: ReadonlyArray<FlagAnswer> }).data
    expect(listed.map(environmentsOf)).toEqual([["production"]])
    expect(JSON.stringify(listed)).not.toContain("dev-secret-rule")
    for (const answer of [await admin("GET", "/v1/projects/p1/flags/f"), await viewer("/v1/projects/p1/flags/f")]) {
      expect(answer.status).toBe(200)
      expect(environmentsOf(answer.body as FlagAnswer).sort()).toEqual(["development", "production"])
    }
    expect(((await viewer("/v1/projects/p1/flags")).body as { data: ReadonlyArray<FlagAnswer> }).data.map(environmentsOf)).toEqual([["development", "production"]])
  })

  it("its own writes answer the flag with production's configuration only", async () => {
    const patched = (await ok(bound("PATCH", "/v1/projects/p1/flags/f", { description: "Seen by production" }), 200)) as FlagAnswer
    expect(environmentsOf(patched)).toEqual(["production"])
    const targeted = (await ok(bound("PUT", "/v1/projects/p1/flags/f/targeting", targeting("production", "prod-rule")), 200)) as FlagAnswer
    expect(environmentsOf(targeted)).toEqual(["production"])
    // A new flag would have a configuration in development too (which it could then not delete): refused, nothing made.
    const created = await bound("POST", "/v1/projects/p1/flags", { key: "made-by-bound", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
    expect(created.body).toEqual({ error: { code: "forbidden", message: Messages.boundKeyWritesEveryEnvironment("production") } })
    expect((await admin("GET", "/v1/projects/p1/flags/made-by-bound")).status).toBe(404)
  })

  it("schedules: a flag's list holds production's only; the pending list of development is refused", async () => {
    const ofFlag = ((await ok(bound("GET", "/v1/projects/p1/flags/f/schedules"), 200)) as { data: ReadonlyArray<{ environment: string }> }).data
    expect(ofFlag.map((schedule) => schedule.environment)).toEqual(["production"])
    const pending = ((await ok(bound("GET", "/v1/projects/p1/schedules"), 200)) as { data: ReadonlyArray<{ environment: string }> }).data
    expect(pending.map((schedule) => schedule.environment)).toEqual(["production"])
    refused(await bound("GET", "/v1/projects/p1/schedules?environment=development"))
    expect(((await viewer("/v1/projects/p1/flags/f/schedules")).body as { data: ReadonlyArray<{ environment: string }> }).data.map((s) => s.environment).sort()).toEqual(["development", "production"])
    expect(((await viewer("/v1/projects/p1/schedules")).body as { data: ReadonlyArray<unknown> }).data).toHaveLength(2)
  })

  it("change requests: the list holds production's only; development's is refused by id", async () => {
    const listed = ((await ok(bound("GET", "/v1/projects/p1/change-requests"), 200)) as { data: ReadonlyArray<{ id: string }> }).data
    expect(listed.map((cr) => cr.id)).toEqual([productionRequest])
    refused(await bound("GET", `/v1/projects/p1/change-requests/${developmentRequest}`))
    await ok(bound("GET", `/v1/projects/p1/change-requests/${productionRequest}`), 200)
    const seenByViewer = ((await viewer("/v1/projects/p1/change-requests")).body as { data: ReadonlyArray<{ id: string }> }).data
    expect(seenByViewer.map((cr) => cr.id).sort()).toEqual([developmentRequest, productionRequest].sort())
    await ok(viewer(`/v1/projects/p1/change-requests/${developmentRequest}`), 200)
  })

  it("the audit log leaves development out (and flags' development configuration); naming development is refused", async () => {
    const entries = ((await ok(bound("GET", "/v1/projects/p1/audit?limit=200"), 200)) as { data: ReadonlyArray<{ action: string; environment?: string }> }).data
    expect(entries.length).toBeGreaterThan(0)
    expect(entries.filter((entry) => entry.environment !== undefined && entry.environment !== "production")).toEqual([])
    expect(JSON.stringify(entries)).not.toContain("development")
    // The flag's creation is shown, with production's configuration only.
    expect(entries.some((entry) => entry.action === "flag.created")).toBe(true)
    refused(await bound("GET", "/v1/projects/p1/audit?environment=development"))
    const everything = JSON.stringify((await viewer("/v1/projects/p1/audit?limit=200")).body)
    expect(everything).toContain("dev-secret-rule")
    expect(everything).toContain("development-proposed")
  })

  it("reads no insights of development, copies nothing from it, and reads no webhooks", async () => {
    refused(await bound("GET", "/v1/projects/p1/flags/f/insights?environment=development"))
    await ok(bound("GET", "/v1/projects/p1/flags/f/insights?environment=production"), 200)
    refused(await bound("POST", "/v1/projects/p1/environments/production/copy", { from: "development" }))
    expect(((await admin("GET", "/v1/projects/p1/flags/f/targeting?environment=production")).body as Config).rules.map((rule) => rule.id)).toEqual(["prod-rule"])
    refused(await bound("GET", "/v1/projects/p1/webhooks"))
    refused(await bound("POST", "/v1/projects/p1/webhooks", { url: "https://hooks.example.com/x", events: ["flag.updated"] }))
    await ok(viewer("/v1/projects/p1/flags/f/insights?environment=development"), 200)
  })

  it("the events stream tells it of production's changes and of none of development's", async () => {
    const boundStream = await openStream(t.url, "/v1/projects/p1/events", { authorization: `Bearer ${t.keys.boundServerOther}`, "last-event-id": "0" })
    const adminStream = await openStream(t.url, "/v1/projects/p1/events", { authorization: `Bearer ${t.keys.global}`, "last-event-id": "0" })
    try {
      expect(boundStream.status).toBe(200)
      await ok(admin("PUT", "/v1/projects/p1/flags/f/targeting", targeting("development", "dev-later-rule")), 200)
      const keyMade = async (body: unknown) => ((await ok(admin("POST", "/v1/projects/p1/keys", body), 201)) as { id: string }).id
      const unboundKey = await keyMade({ type: "server", name: "unbound" })
      const productionKey = await keyMade({ type: "client", name: "prod", environment: "production" })
      // The last write: once it arrives, everything before it has been delivered (or left out).
      const marker = ((await ok(admin("PATCH", "/v1/projects/p1/flags/f", { description: "marker" }), 200)) as { version: number }).version
      type Event = { kind: string; resource: { type: string; key: string }; version: number | null; environments: ReadonlyArray<string>; configVersions: Record<string, number> }
      const keysMade = (events: ReadonlyArray<Event>) => events.filter((event) => event.kind === "key.created").map((event) => event.resource.key)
      const lastOf = async (stream: typeof boundStream): Promise<ReadonlyArray<Event>> => {
        for (let n = 1; ; n++) {
          const event = JSON.parse((await stream.event(n, 10_000)).data) as Event
          if (event.kind === "flag.updated" && event.version === marker) return stream.events.slice(1, n + 1).map((e) => JSON.parse(e.data) as Event)
        }
      }
      const seenByBound = await lastOf(boundStream)
      expect(seenByBound.filter((event) => event.environments.some((environment) => environment !== "production"))).toEqual([])
      expect(seenByBound.filter((event) => Object.keys(event.configVersions).some((environment) => environment !== "production"))).toEqual([])
      const seenByAdmin = await lastOf(adminStream)
      expect(seenByAdmin.some((event) => event.environments.includes("development"))).toBe(true)
      expect(seenByAdmin.length).toBeGreaterThan(seenByBound.length)
      // Keys as in its key list: production's only, no unbound key (it reaches development too).
      const keys = ((await ok(admin("GET", "/v1/projects/p1/keys"), 200)) as { data: ReadonlyArray<{ id: string; environment: string | null }> }).data
      const production = keys.filter((key) => key.environment === "production").map((key) => key.id)
      expect(keysMade(seenByBound)).toContain(productionKey)
      expect(keysMade(seenByBound).filter((id) => !production.includes(id))).toEqual([])
      expect(keysMade(seenByAdmin)).toEqual(expect.arrayContaining([unboundKey, productionKey]))
      expect(keysMade(seenByAdmin).filter((id) => !production.includes(id))).not.toEqual([])
    } finally {
      boundStream.close()
      adminStream.close()
    }
  })
})
