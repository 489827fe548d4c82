/**
 * The unmodified OFREP web provider follows Flagport's change stream: the bulk evaluation's
 * `eventStreams` give it this server's `/v1/stream` URL with a stream token, it connects with
 * `EventSource` (the `eventsource` package standing in for the browser's), and a change made
 * through the management API reaches the application as CONFIGURATION_CHANGED with the new value,
 * with polling off.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { OFREPWebProvider } from "@openfeature/ofrep-web-provider"
import { OpenFeature, type Provider, ProviderEvents } from "@openfeature/web-sdk"
import { EventSource } from "eventsource"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { ofrepHeaders, seedOfrepFlags } from "./OfrepFlags.js"

let t: TestServer
const hadEventSource = "EventSource" in globalThis

beforeAll(async () => {
  // What a browser provides.
  if (!hadEventSource) Object.assign(globalThis, { EventSource })
  t = await startServer()
  await seedOfrepFlags(t)
  await OpenFeature.setContext({ targetingKey: "u1", plan: "beta" })
  const provider = new OFREPWebProvider({ baseUrl: t.url, headers: ofrepHeaders(t), disableVisibilityRefresh: true, cacheMode: "disabled", pollInterval: 0 })
  await OpenFeature.setProviderAndWait(provider as unknown as Provider)
})
afterAll(async () => {
  await OpenFeature.clearProviders()
  await t?.close()
  if (!hadEventSource) delete (globalThis as { EventSource?: unknown }).EventSource
})

describe("@openfeature/ofrep-web-provider on Flagport's stream", () => {
  it("a change through the management API arrives as CONFIGURATION_CHANGED with the new value", async () => {
    const client = OpenFeature.getClient()
    expect(client.getNumberValue("page-size", 0)).toBe(50)
    const changed = new Promise<void>((resolve) => client.addHandler(ProviderEvents.ConfigurationChanged, () => resolve()))
    await new Promise((r) => setTimeout(r, 500)) // the provider has opened the stream
    const flag = await request(t.url, "GET", "/v1/projects/p1/flags/page-size", { key: t.keys.scoped })
    const variations = (flag.body as { variations: Array<{ key: string; value: unknown }> }).variations
    const other = variations.find((v) => v.value !== 50)!
    const put = await request(t.url, "PUT", "/v1/projects/p1/flags/page-size/targeting", {
      key: t.keys.scoped,
      body: { environment: "development", enabled: true, defaultVariationKey: other.key, offVariationKey: other.key, rules: [] }
    })
    expect(put.status, put.text).toBe(200)
    await Promise.race([changed, new Promise((_, reject) => setTimeout(() => reject(new Error("no CONFIGURATION_CHANGED within 5 s")), 5_000))])
    await new Promise((r) => setTimeout(r, 100))
    expect(client.getNumberValue("page-size", 0)).toBe(other.value)
  })
})
