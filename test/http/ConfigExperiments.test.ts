/**
 * `GET /v1/config` names the rules running experiments measure (`experiments: [{ flagKey, ruleId }]`,
 * nothing more, to a client key too) so an SDK knows which of its evaluations are exposures: from
 * the start of an experiment until its stop, in its environment only, with a new ETag each time
 * and the change announced on the stream. Through a real server on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

const ROLLOUT = { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] }
const METRICS = [{ key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" }]

/** The first `data:` line of the stream after `from`, or null after `ms`. */
const nextEvent = async (reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<string | null> => {
  const decoder = new TextDecoder()
  let text = ""
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const chunk = await Promise.race([reader.read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), deadline - Date.now()))])
    if (chunk === null || chunk.done === true) return null
    text += decoder.decode(chunk.value)
    const data = /^data: (.*)$/m.exec(text)
    if (data !== null) return data[1]!
  }
  return null
}

describe.each(["sqlite", "postgres"] as const)("GET /v1/config names the measured rules (%s)", (backend) => {
  let t: TestServer
  const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
  const config = (environment: string) => request(t.url, "GET", `/v1/config?environment=${environment}`, { key: t.keys.client })

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    expect((await admin("POST", "/v1/projects/p1/flags", { key: "checkout", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })).status).toBe(201)
    for (const environment of ["development", "production"]) {
      const targeting = { environment, enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "half", conditions: [], rollout: ROLLOUT }] }
      expect((await admin("PUT", "/v1/projects/p1/flags/checkout/targeting", targeting)).status).toBe(200)
    }
    const experiment = { key: "redesign", flagKey: "checkout", environment: "production", ruleId: "half", controlVariationKey: "off", metrics: METRICS }
    expect((await admin("POST", "/v1/projects/p1/experiments", experiment)).status).toBe(201)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("from start to stop, in the experiment's environment only, announced on the stream", async () => {
    const draft = await config("production")
    expect(draft.status).toBe(200)
    expect(draft.body).not.toHaveProperty("experiments")

    const stream = await fetch(`${t.url}/v1/stream?environment=production`, {
      headers: { authorization: `Bearer ${t.keys.client}`, "last-event-id": draft.headers.get("etag")! }
    })
    const reader = stream.body!.getReader()
    try {
      expect((await admin("POST", "/v1/projects/p1/experiments/redesign/start")).status).toBe(200)
      const running = await config("production")
      expect((running.body as { experiments?: unknown }).experiments).toEqual([{ flagKey: "checkout", ruleId: "half" }])
      expect(running.headers.get("etag")).not.toBe(draft.headers.get("etag"))
      const announced = await nextEvent(reader, 10_000)
      expect(announced).not.toBeNull()
      expect(JSON.parse(announced!).etag).toBe(running.headers.get("etag"))
      expect((await config("development")).body).not.toHaveProperty("experiments")

      expect((await admin("POST", "/v1/projects/p1/experiments/redesign/stop")).status).toBe(200)
      const stopped = await config("production")
      expect(stopped.body).not.toHaveProperty("experiments")
      expect(stopped.headers.get("etag")).toBe(draft.headers.get("etag"))
    } finally {
      await reader.cancel()
    }
  })
})
