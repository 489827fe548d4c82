/**
 * A segment's key lists in evaluation, through a real server on SQLite and PostgreSQL: a flag whose
 * rule names a segment of 30,000 included keys (and a few excluded) serves the rule to exactly the
 * listed keys and to the conditions' matches not excluded; `GET /v1/config` names each list's version
 * and size (never its keys); a one-key change reaches the evaluations once the server has reloaded
 * the list (in the background: meanwhile they answer from the previous one); explain says a list decided;
 * a segment's `keyAttribute` makes its lists match that context attribute instead of the key.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

const SEGMENT = "/v1/projects/p1/segments/testers"

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`segment key lists in evaluation (${backend})`, () => {
    let t: TestServer
    const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }), ...(headers === undefined ? {} : { headers }) })
    const served = async (key: string, attributes: Record<string, unknown> = {}) => {
      const reply = await request(t.url, "POST", "/v1/evaluate", { key: t.keys.scoped, body: { environment: "development", context: { key, attributes } } })
      expect(reply.status, reply.text).toBe(200)
      return (reply.body as { flags: Record<string, { variationKey: string; reason: string }> }).flags["beta"]!
    }

    beforeAll(async () => {
      t = await startServer(freshStorage(backend))
      const made = await admin("POST", "/v1/projects/p1/segments", {
        key: "testers",
        name: "Testers",
        conditions: [{ attribute: "plan", operator: "in", values: ["enterprise"] }]
      })
      expect(made.status, made.text).toBe(201)
      const keys = Array.from({ length: 30_000 }, (_, i) => `user-${i}`)
      expect((await admin("PUT", `${SEGMENT}/keys/included`, `${keys.join("\n")}\n`, { "content-type": "text/plain" })).status).toBe(200)
      expect((await admin("PUT", `${SEGMENT}/keys/excluded`, "key\nboss\nuser-7\n", { "content-type": "text/csv" })).status).toBe(200)
      const flag = { key: "beta", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
      expect((await admin("POST", "/v1/projects/p1/flags", flag)).status).toBe(201)
      const targeting = {
        environment: "development",
        enabled: true,
        defaultVariationKey: "off",
        offVariationKey: "off",
        rules: [{ conditions: [{ operator: "inSegment", values: ["testers"] }], variationKey: "on" }]
      }
      const put = await admin("PUT", "/v1/projects/p1/flags/beta/targeting", targeting)
      expect(put.status, put.text).toBe(200)
    }, 120_000)
    afterAll(async () => {
      await t?.close()
    })

    it("included keys are in (excluded or not), excluded keys out whatever the conditions, the rest as the conditions say", async () => {
      for (const key of ["user-0", "user-12345", "user-29999", "user-7"]) expect((await served(key)).variationKey, key).toBe("on")
      for (const key of ["user-30000", "someone", "USER-1"]) expect((await served(key)).variationKey, key).toBe("off")
      expect((await served("someone", { plan: "enterprise" })).variationKey).toBe("on")
      expect((await served("boss", { plan: "enterprise" })).variationKey).toBe("off")
    })

    it("GET /v1/config names each list's version, size and salt, never a key", async () => {
      const reply = await request(t.url, "GET", "/v1/config?environment=development", { key: t.keys.scoped })
      const segment = (reply.body as { segments: Array<Record<string, unknown>> }).segments.find((s) => s.key === "testers")
      expect(segment).toEqual({
        key: "testers",
        conditions: [{ attribute: "plan", operator: "in", values: ["enterprise"] }],
        included: { version: 1, count: 30_000, salt: expect.stringMatching(/\/included$/) },
        excluded: { version: 1, count: 2, salt: expect.stringMatching(/\/excluded$/) }
      })
      expect(reply.text).not.toContain("user-12345")
    })

    it("a one-key change reaches the evaluations once the list is reloaded; explain says the list decided", async () => {
      expect((await admin("PATCH", `${SEGMENT}/keys/excluded`, { add: ["user-12345"] })).status).toBe(200)
      expect((await admin("PATCH", `${SEGMENT}/keys/included`, { add: ["newcomer"], remove: ["user-0"] })).status).toBe(200)
      // The lists are reloaded off the request path: the change is served once they are.
      await vi.waitFor(async () => expect((await served("newcomer")).variationKey).toBe("on"), { timeout: 10_000 })
      expect((await served("user-0")).variationKey).toBe("off")
      // Included wins over excluded.
      expect((await served("user-12345")).variationKey).toBe("on")
      const explained = await request(t.url, "POST", "/v1/explain", { key: t.keys.scoped, body: { environment: "development", flagKey: "beta", context: { key: "boss" } } })
      expect(explained.status, explained.text).toBe(200)
      const condition = (explained.body as { trace: { rules: Array<{ conditions: Array<{ segments: Array<unknown> }> }> } }).trace.rules[0]!.conditions[0]!
      expect(condition.segments).toEqual([{ segmentKey: "testers", matched: false, listed: "excluded", conditions: [] }])
    })

    it("a segment's keyAttribute: its lists match that attribute (stored, patched, in the configuration); an empty name is refused", async () => {
      const refused = await admin("POST", "/v1/projects/p1/segments", { key: "bad", name: "Bad", conditions: [], keyAttribute: "" })
      expect(refused.status).toBe(400)
      expect(refused.text).toContain("keyAttribute")
      expect((await admin("GET", "/v1/projects/p1/segments/bad")).status).toBe(404)
      const made = await admin("POST", "/v1/projects/p1/segments", { key: "accounts", name: "Accounts", conditions: [], keyAttribute: "accountId" })
      expect(made.status, made.text).toBe(201)
      expect((made.body as { keyAttribute: string }).keyAttribute).toBe("accountId")
      expect(((await admin("GET", SEGMENT)).body as { keyAttribute: string }).keyAttribute).toBe("key")
      expect((await admin("PUT", "/v1/projects/p1/segments/accounts/keys/included", "acme\nglobex\n", { "content-type": "text/plain" })).status).toBe(200)
      const flag = { key: "accounts-beta", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
      expect((await admin("POST", "/v1/projects/p1/flags", flag)).status).toBe(201)
      const rules = [{ conditions: [{ operator: "inSegment", values: ["accounts"] }], variationKey: "on" }]
      const targeting = { environment: "development", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules }
      expect((await admin("PUT", "/v1/projects/p1/flags/accounts-beta/targeting", targeting)).status).toBe(200)
      const servedFor = async (key: string, attributes: Record<string, unknown>) => {
        const reply = await request(t.url, "POST", "/v1/evaluate", { key: t.keys.scoped, body: { environment: "development", context: { key, attributes } } })
        return (reply.body as { flags: Record<string, { variationKey: string }> }).flags["accounts-beta"]!.variationKey
      }
      await vi.waitFor(async () => expect(await servedFor("anyone", { accountId: "acme" })).toBe("on"), { timeout: 10_000 })
      expect(await servedFor("acme", {})).toBe("off")
      expect(await servedFor("anyone", { accountId: "initech" })).toBe("off")
      expect(await servedFor("anyone", { accountId: 7 })).toBe("off")
      const config = await request(t.url, "GET", "/v1/config?environment=development", { key: t.keys.scoped })
      const segment = (config.body as { segments: Array<Record<string, unknown>> }).segments.find((s) => s.key === "accounts")
      expect(segment).toMatchObject({ keyAttribute: "accountId", included: { version: 1, count: 2 } })
      // Back to the context key: the same list now matches keys.
      const patched = await admin("PATCH", "/v1/projects/p1/segments/accounts", { keyAttribute: "key" })
      expect(patched.status, patched.text).toBe(200)
      await vi.waitFor(async () => expect(await servedFor("acme", {})).toBe("on"), { timeout: 10_000 })
      expect(await servedFor("anyone", { accountId: "acme" })).toBe("off")
    })
  })
}
