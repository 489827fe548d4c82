/**
 * Open change streams are bounded per key, per client address and in all, through a real server
 * over loopback: 10,000 stream attempts with one key (at most 200 in flight) are all refused past
 * the key's bound with 429, `Retry-After` and the envelope, while another key still connects; a
 * stream that ends gives its slot back. Bounded: the refused answers are read and closed at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { startServer, type TestServer } from "./fixtures.js"

const ATTEMPTS = 10_000
const IN_FLIGHT = 200

describe("stream limits", () => {
  let t: TestServer
  // The responses too: a response nobody holds is collected, and undici then cancels its body (closing the stream).
  const open: Array<{ readonly controller: AbortController; readonly response: Response }> = []
  const connect = async (key: string) => {
    const controller = new AbortController()
    const response = await fetch(`${t.url}/v1/stream?environment=development`, { headers: { authorization: `Bearer ${key}` }, signal: controller.signal })
    if (response.status === 200) open.push({ controller, response })
    const text = response.status === 200 ? "" : await response.text()
    return { status: response.status, retryAfter: response.headers.get("retry-after"), text }
  }
  beforeAll(async () => {
    t = await startServer(undefined, { lane: { streamLimits: { perKey: 50, perAddress: 60, total: 1_000 } } })
  })
  afterAll(async () => {
    for (const o of open) o.controller.abort()
    await t?.close()
  })

  it("10,000 attempts with one key: 50 streams, the rest 429 with Retry-After; another key still connects", async () => {
    const key = t.keys.client
    const statuses = new Map<number, number>()
    let sample: { status: number; retryAfter: string | null } | undefined
    for (let done = 0; done < ATTEMPTS; done += IN_FLIGHT) {
      const batch = await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, ATTEMPTS - done) }, () => connect(key)))
      for (const r of batch) {
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
        if (r.status === 429) sample ??= r
      }
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 50, 429: ATTEMPTS - 50 })
    expect(sample?.retryAfter).toBe("30")
    const refused = await fetch(`${t.url}/v1/stream?environment=development`, { headers: { authorization: `Bearer ${key}` } })
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({
      error: { code: "rate_limited", message: "This API key already has 50 open streams (FLAGPORT_STREAMS_PER_KEY); close one or retry later." }
    })
    // Another key of the project is not held back by the first one's streams.
    const other = await connect(t.keys.boundClient)
    expect(other.status).toBe(200)
    // A stream that ends gives its slot back.
    open.shift()!.controller.abort()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect((await connect(key)).status).toBe(200)
  }, 120_000)

  it("one client address holds at most its bound, whatever the keys", async () => {
    // 51 open from 127.0.0.1 so far: 9 more fit, with fresh keys, then the address is full.
    const keys = await t.run(Effect.gen(function* () {
      const apiKeys = yield* ApiKeys
      return yield* Effect.all(Array.from({ length: 10 }, () => Effect.map(apiKeys.create({ type: "client", projectId: "p1", environment: null }), (k) => k.secret)))
    }))
    const answers = []
    for (const key of keys) answers.push(await connect(key))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 429])
    expect(JSON.parse(answers[9]!.text)).toEqual({
      error: { code: "rate_limited", message: "This client address already has 60 open streams (FLAGPORT_STREAMS_PER_ADDRESS); close one or retry later." }
    })
  })
})
