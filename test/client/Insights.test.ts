/**
 * The SDK reports its own evaluations: counted per flag and variation, sent batched to
 * `POST /v1/insights` every interval and at `close()`, and they add up exactly in the server's
 * series (read after the server's shutdown flush). `sendInsights: false` sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createClient } from "../../adapters/client/index.js"
import { request } from "../http/fixtures.js"
import { type Flagport, startFlagport } from "./RealServer.js"

let server: Flagport
beforeAll(async () => {
  server = await startFlagport()
  await server.createFlag("sdk-flag", "boolean", [{ key: "on", value: true }, { key: "off", value: false }])
  await server.target("sdk-flag", { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
}, 60_000)
afterAll(async () => {
  await server?.close()
})

/** A fetch that records the bodies the SDK posts to /v1/insights. */
const recording = () => {
  const reports: Array<{ environment: string; counts: Array<{ flagKey: string; variationKey: string; count: number }> }> = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (String(input).endsWith("/v1/insights")) reports.push(JSON.parse(String(init?.body)))
    return globalThis.fetch(input, init)
  }
  return { reports, fetch }
}

describe("SDK insights", () => {
  it("sends its counts every interval and at close; the server's series adds them up", async () => {
    const { fetch, reports } = recording()
    const flags = await createClient({ url: server.url, key: server.clientKey, environment: "production", stream: false, insightsIntervalMs: 150, fetch })
    const user = { key: "u1" }
    for (let i = 0; i < 25; i++) expect(flags.boolean("sdk-flag", user, false)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(reports.length).toBeGreaterThanOrEqual(1)
    expect(reports[0]).toMatchObject({ environment: "production", counts: [{ flagKey: "sdk-flag", variationKey: "on", count: 25 }] })
    for (let i = 0; i < 5; i++) flags.detail("sdk-flag", user, false)
    flags.all(user)
    flags.boolean("no-such-flag", user, false)
    await flags.close()
    const sent = reports.flatMap((r) => r.counts).reduce((sum, c) => sum + c.count, 0)
    expect(sent).toBe(31)

    // The server writes counts at shutdown at the latest.
    await server.stop()
    await server.restart()
    const series = await request(server.url, "GET", "/v1/projects/p1/flags/sdk-flag/insights?environment=production", { key: server.globalKey })
    expect(series.status, series.text).toBe(200)
    const totals = (series.body as { variations: Array<{ variationKey: string; total: number }> }).variations.map((v) => [v.variationKey, v.total])
    expect(totals).toEqual([["on", 31], ["off", 0]])
  })

  it("sends nothing with sendInsights: false", async () => {
    const { fetch, reports } = recording()
    const flags = await createClient({ url: server.url, key: server.clientKey, environment: "production", stream: false, sendInsights: false, insightsIntervalMs: 50, fetch })
    flags.boolean("sdk-flag", { key: "u" }, false)
    await new Promise((resolve) => setTimeout(resolve, 150))
    await flags.close()
    expect(reports).toEqual([])
  })
})
