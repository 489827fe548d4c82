/**
 * The OFREP routes over raw HTTP, through a real server: response shapes and reasons, agreement
 * with POST /v1/evaluate, a missing targeting key, OFREP's error bodies, the bulk ETag (per
 * context and per configuration, never a 304 for a stale one) and `metadata.version`.
 * The authorization rows (bound keys, other projects) are in authorization.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { request, startServer, type TestServer } from "./fixtures.js"

const ENV = { "flagport-environment": "development" }
const BULK = "/ofrep/v1/evaluate/flags"
const one = (key: string) => `/ofrep/v1/evaluate/flags/${key}`

interface OfrepFlag {
  readonly key: string
  readonly value?: unknown
  readonly reason?: string
  readonly variant?: string
  readonly errorCode?: string
  readonly metadata: Record<string, unknown>
}

let t: TestServer
const admin = (method: string, path: string, body: unknown) => request(t.url, method, path, { key: t.keys.scoped, body })
const target = (flag: string, body: Record<string, unknown>) =>
  admin("PUT", `/v1/projects/p1/flags/${flag}/targeting`, { environment: "development", ...body })
const ofrep = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  request(t.url, "POST", path, { key: t.keys.client, body, headers: { ...ENV, ...headers } })
const bulk = async (context: unknown, headers: Record<string, string> = {}) => ofrep(BULK, { context }, headers)
const flagsOf = (body: unknown) => new Map((body as { flags: Array<OfrepFlag> }).flags.map((f) => [f.key, f]))

beforeAll(async () => {
  t = await startServer()
  const variations = (values: ReadonlyArray<unknown>) => values.map((value, i) => ({ key: `v${i}`, value }))
  await admin("POST", "/v1/projects/p1/flags", { key: "targeted", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
  await target("targeted", {
    enabled: true,
    defaultVariationKey: "off",
    offVariationKey: "off",
    rules: [{ id: "beta-rule", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" }]
  })
  await admin("POST", "/v1/projects/p1/flags", { key: "split", type: "string", variations: variations(["a", "b"]) })
  await target("split", {
    enabled: true,
    defaultVariationKey: "v0",
    offVariationKey: "v0",
    rules: [{ id: "half", conditions: [], rollout: { variations: [{ variationKey: "v0", weight: 50_000 }, { variationKey: "v1", weight: 50_000 }] } }]
  })
  await admin("POST", "/v1/projects/p1/flags", { key: "static", type: "number", variations: variations([7, 9]) })
  await target("static", { enabled: true, defaultVariationKey: "v1", offVariationKey: "v0", rules: [] })
  await admin("POST", "/v1/projects/p1/flags", { key: "disabled", type: "json", variations: variations([{ tier: 1 }, { tier: 2 }]) })
})
afterAll(() => t?.close())

describe("single flag: POST /ofrep/v1/evaluate/flags/{key}", () => {
  it("a targeting match: value, TARGETING_MATCH, the variation key as variant, ruleId/ruleIndex/version as metadata", async () => {
    const reply = await ofrep(one("targeted"), { context: { targetingKey: "u1", plan: "beta" } })
    expect(reply.status, reply.text).toBe(200)
    expect(reply.headers.get("content-type")).toBe("application/json")
    expect(reply.body).toEqual({ key: "targeted", value: true, reason: "TARGETING_MATCH", variant: "on", metadata: { ruleId: "beta-rule", ruleIndex: 0, version: 2 } })
  })
  it("the other reasons: DEFAULT (rules, none matched), SPLIT, STATIC (no rules), DISABLED", async () => {
    expect((await ofrep(one("targeted"), { context: { targetingKey: "u1" } })).body).toMatchObject({ value: false, reason: "DEFAULT", variant: "off" })
    expect((await ofrep(one("split"), { context: { targetingKey: "u1" } })).body).toMatchObject({ reason: "SPLIT", metadata: { ruleId: "half", ruleIndex: 0 } })
    expect((await ofrep(one("static"), { context: { targetingKey: "u1" } })).body).toMatchObject({ value: 9, reason: "STATIC", variant: "v1" })
    expect((await ofrep(one("disabled"), { context: { targetingKey: "u1" } })).body).toMatchObject({ value: { tier: 2 }, reason: "DISABLED", variant: "v1" })
  })
  it("without a targeting key (or with no context at all) the flag is evaluated with the key absent, never refused", async () => {
    // The rollout buckets by key: with no key it does not apply, and evaluation falls through.
    for (const body of [{ context: { plan: "gold" } }, { context: {} }, {}, { context: { targetingKey: "" } }]) {
      const reply = await ofrep(one("split"), body)
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body).toMatchObject({ value: "a", reason: "DEFAULT", variant: "v0" })
    }
    const noBody = await request(t.url, "POST", one("targeted"), { key: t.keys.client, headers: ENV })
    expect(noBody.body).toMatchObject({ value: false, reason: "DEFAULT" })
    const attributeOnly = await ofrep(one("targeted"), { context: { plan: "beta" } })
    expect(attributeOnly.body).toMatchObject({ value: true, reason: "TARGETING_MATCH" })
  })
  it("an unknown flag is 404 FLAG_NOT_FOUND with the key", async () => {
    const reply = await ofrep(one("nope"), { context: { targetingKey: "u" } })
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 404,
      body: { key: "nope", errorCode: "FLAG_NOT_FOUND", errorDetails: "No flag 'nope' in environment 'development'" }
    })
    const undecodable = await ofrep(one("%E0%A4%A"), {})
    expect(undecodable.status).toBe(404)
  })
})

describe("both routes agree with POST /v1/evaluate", () => {
  it.each([
    { targetingKey: "user-1", plan: "beta" },
    { targetingKey: "user-2" },
    { targetingKey: "user-3", plan: "gold", age: 40 },
    { targetingKey: "user-4", nested: { a: [1, 2] } }
  ])("for %j", async (context) => {
    const { targetingKey, ...attributes } = context
    const evaluated = await request(t.url, "POST", "/v1/evaluate", {
      key: t.keys.client,
      body: { environment: "development", context: { key: targetingKey, attributes } }
    })
    const expected = (evaluated.body as { flags: Record<string, { value: unknown; variationKey: string }> }).flags
    const flags = flagsOf((await bulk(context)).body)
    expect([...flags.keys()].sort()).toEqual(Object.keys(expected).sort())
    for (const [key, result] of Object.entries(expected)) {
      expect(flags.get(key), key).toMatchObject({ value: result.value, variant: result.variationKey })
      const single = await ofrep(one(key), { context })
      expect(single.body, key).toEqual(flags.get(key))
    }
  })
})

describe("bulk: POST /ofrep/v1/evaluate/flags", () => {
  it("answers every flag, metadata.version (the configuration's ETag, as /v1/config sends it) and an ETag", async () => {
    const reply = await bulk({ targetingKey: "u1" })
    expect(reply.status, reply.text).toBe(200)
    const config = await request(t.url, "GET", "/v1/config?environment=development", { key: t.keys.client })
    expect(reply.body).toMatchObject({ metadata: { version: config.headers.get("etag") } })
    expect(reply.headers.get("etag")).toMatch(/^W\/".+"$/)
    expect([...flagsOf(reply.body).keys()].sort()).toEqual(["disabled", "split", "static", "targeted"])
  })
  it("the ETag differs for two contexts, not for the same context written in another order", async () => {
    const a = (await bulk({ targetingKey: "u1", plan: "beta", x: { b: 1, a: 2 } })).headers.get("etag")
    const b = (await bulk({ targetingKey: "u2", plan: "beta", x: { b: 1, a: 2 } })).headers.get("etag")
    const c = (await bulk({ x: { a: 2, b: 1 }, plan: "beta", targetingKey: "u1" })).headers.get("etag")
    // Asked again (the ETag then comes from what the server remembers of the same body), nothing differs.
    expect((await bulk({ targetingKey: "u1", plan: "beta", x: { b: 1, a: 2 } })).headers.get("etag")).toBe(a)
    expect((await bulk({ x: { a: 2, b: 1 }, plan: "beta", targetingKey: "u1" })).headers.get("etag")).toBe(c)
    expect(a).not.toBe(b)
    expect(c).toBe(a)
  })
  it("If-None-Match with the current ETag gives 304; with another context's, or *, a 200", async () => {
    const context = { targetingKey: "u1", plan: "beta" }
    const etag = (await bulk(context)).headers.get("etag")!
    const same = await bulk(context, { "if-none-match": etag })
    expect(same.status).toBe(304)
    expect(same.headers.get("etag")).toBe(etag)
    expect(same.text).toBe("")
    expect((await bulk({ targetingKey: "u2", plan: "beta" }, { "if-none-match": etag })).status).toBe(200)
    expect((await bulk(context, { "if-none-match": "*" })).status).toBe(200)
  })
  it("a change to the configuration changes the ETag: the stale one never gets a 304", async () => {
    const context = { targetingKey: "u9" }
    const before = await bulk(context)
    const stale = before.headers.get("etag")!
    await target("static", { enabled: true, defaultVariationKey: "v0", offVariationKey: "v0", rules: [] })
    const after = await bulk(context, { "if-none-match": stale })
    expect(after.status).toBe(200)
    expect(after.headers.get("etag")).not.toBe(stale)
    expect(flagsOf(after.body).get("static")).toMatchObject({ value: 7, metadata: { version: 3 } })
    expect((after.body as { metadata: { version: string } }).metadata.version).not.toBe((before.body as { metadata: { version: string } }).metadata.version)
    expect((await bulk(context, { "if-none-match": after.headers.get("etag")! })).status).toBe(304)
  })
  it("flagConfigEtag naming another configuration than the one served gets a 200 whatever If-None-Match says", async () => {
    const context = { targetingKey: "u1" }
    const first = await bulk(context)
    const etag = first.headers.get("etag")!
    const version = (first.body as { metadata: { version: string } }).metadata.version
    const current = await ofrep(`${BULK}?flagConfigEtag=${encodeURIComponent(version)}&flagConfigLastModified=1`, { context }, { "if-none-match": etag })
    expect(current.status).toBe(304)
    const other = await ofrep(`${BULK}?flagConfigEtag=${encodeURIComponent('W/"other"')}`, { context }, { "if-none-match": etag })
    expect(other.status).toBe(200)
  })
})

describe("errors in OFREP's bodies", () => {
  it.each([
    ["malformed JSON", "{nope", "PARSE_ERROR", "The body is not valid JSON"],
    ["a body that is not an object", "[1]", "PARSE_ERROR", 'The body must be a JSON object, like {"context": {...}}'],
    ["a context that is not an object", { context: "u" }, "INVALID_CONTEXT", "context must be an object"],
    ["a targetingKey that is not a string", { context: { targetingKey: 42 } }, "INVALID_CONTEXT", "context.targetingKey must be a string"],
    ["a context past the limits", { context: { targetingKey: "x".repeat(1025) } }, "INVALID_CONTEXT", "context.key: must be at most 1,024 characters"]
  ] as const)("%s: 400 %s", async (_name, body, errorCode, errorDetails) => {
    const single = await ofrep(one("targeted"), body)
    expect({ status: single.status, body: single.body }).toEqual({ status: 400, body: { key: "targeted", errorCode, errorDetails } })
    const all = await ofrep(BULK, body)
    expect({ status: all.status, body: all.body }).toEqual({ status: 400, body: { errorCode, errorDetails } })
  })
  it("a body that is not JSON by its content type is PARSE_ERROR", async () => {
    const reply = await ofrep(BULK, "{}", { "content-type": "text/plain" })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ errorCode: "PARSE_ERROR" })
  })
  it("a body over 1 MiB is 413 PARSE_ERROR", async () => {
    const reply = await ofrep(BULK, { context: { targetingKey: "u", big: "x".repeat(1024 * 1024) } })
    expect(reply.status).toBe(413)
    expect(reply.body).toMatchObject({ errorCode: "PARSE_ERROR" })
  })
  it("an unknown environment is INVALID_CONTEXT; no key is 401", async () => {
    const unknown = await ofrep(BULK, {}, { "flagport-environment": "nowhere" })
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 400,
      body: { errorCode: "INVALID_CONTEXT", errorDetails: "Environment 'nowhere' not found in project 'p1'" }
    })
    const anonymous = await request(t.url, "POST", one("targeted"), { body: {}, headers: ENV })
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toMatchObject({ key: "targeted", errorCode: "GENERAL" })
  })
})
