/**
 * A key list the SDK cannot load never makes a segment empty (which would let `notInSegment` match
 * everyone): through a real server, with the SDK's list downloads held back, a client that never
 * had the list serves the caller's fallback for the flags using it (PROVIDER_NOT_READY,
 * `SEGMENT_LIST_NOT_LOADED`) and says so (`stale`); a client that had it keeps serving the previous
 * configuration whole until the new list loads; both catch up once the lists load.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createClient, type Client } from "../../adapters/client/index.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

const SEGMENT = "/v1/projects/p1/segments/beta"

const within = async (ms: number, check: () => boolean): Promise<void> => {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe("an SDK whose key lists are not loaded", () => {
  let t: TestServer
  const clients: Array<Client> = []
  let held = false
  /** The SDK's fetch: key list downloads answer 503 while `held`. */
  const gated: typeof fetch = (input, init) =>
    held && String(input).includes("/v1/config/segments/") ? Promise.resolve(new Response("{}", { status: 503 })) : fetch(input, init)
  const admin = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }), ...(headers === undefined ? {} : { headers }) })
  const sdk = async () => {
    const client = await createClient({ url: t.url, key: t.keys.scoped, environment: "production", fetch: gated, startTimeoutMs: 1_000, backoff: { initialMs: 100, maxMs: 300 } })
    clients.push(client)
    return client
  }

  beforeAll(async () => {
    t = await startServer(freshStorage("sqlite"))
    expect((await admin("POST", "/v1/projects/p1/segments", { key: "beta", name: "Beta", conditions: [] })).status).toBe(201)
    expect((await admin("PUT", `${SEGMENT}/keys/included`, "user-1\nuser-2\n", { "content-type": "text/plain" })).status).toBe(200)
    for (const [flag, operator] of [["in-beta", "inSegment"], ["not-beta", "notInSegment"]] as const) {
      const variations = [{ key: "on", value: true }, { key: "off", value: false }]
      expect((await admin("POST", "/v1/projects/p1/flags", { key: flag, type: "boolean", variations })).status).toBe(201)
      const rules = [{ conditions: [{ operator, values: ["beta"] }], variationKey: "on" }]
      const targeting = { environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules }
      expect((await admin("PUT", `/v1/projects/p1/flags/${flag}/targeting`, targeting)).status).toBe(200)
    }
  }, 60_000)
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()))
    await t?.close()
  })

  it("never had it: the flags using it serve the caller's fallback, with the reason, and say so; right once it loads", async () => {
    held = true
    const stale: Array<string> = []
    const client = await sdk()
    client.on("stale", (message) => stale.push(message))
    const notBeta = client.detail("not-beta", { key: "someone" }, false)
    expect(notBeta.value).toBe(false) // not "on": an unloaded list is not an empty one
    expect(notBeta.errorCode).toBe("PROVIDER_NOT_READY")
    expect(notBeta.reason).toMatchObject({ kind: "ERROR", error: expect.stringMatching(/^SEGMENT_LIST_NOT_LOADED/) })
    expect(client.detail("in-beta", { key: "user-1" }, false).errorCode).toBe("PROVIDER_NOT_READY")
    expect(client.status).toBe("stale")
    held = false
    await within(10_000, () => client.boolean("in-beta", { key: "user-1" }, false))
    expect(client.boolean("not-beta", { key: "someone" }, false)).toBe(true)
    expect(client.status).toBe("ready")
  })

  it("had it: keeps serving the previous configuration whole until the changed list loads", async () => {
    const client = await sdk()
    const messages: Array<string> = []
    client.on("stale", (message) => messages.push(message))
    expect(client.boolean("in-beta", { key: "user-1" }, false)).toBe(true)
    held = true
    expect((await admin("PATCH", `${SEGMENT}/keys/included`, { add: ["newcomer"], remove: ["user-1"] })).status).toBe(200)
    await within(5_000, () => messages.length > 0)
    expect(messages[0]).toMatch(/kept the previous configuration: key lists not loaded/)
    expect(client.boolean("in-beta", { key: "user-1" }, false)).toBe(true)
    expect(client.detail("in-beta", { key: "newcomer" }, true).value).toBe(false)
    held = false
    await within(10_000, () => client.boolean("in-beta", { key: "newcomer" }, false))
    expect(client.boolean("in-beta", { key: "user-1" }, true)).toBe(false)
  })
})
