/**
 * An outage as it happens: a real server, a TCP proxy between it and the client, the proxy cut
 * until the client reports `stale`, then restored with no flag changed (so the reconnected stream
 * has nothing to announce: the client holds the server's ETag). The client must report
 * `recovered`, and the OpenFeature provider READY, within the first reconnection delay plus one
 * second. Every reconnection delay here is at most `backoff.maxMs` (1 s), hence the 2 s bound.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { OpenFeature, ProviderEvents, ProviderStatus } from "@openfeature/server-sdk"
import { type Client, createClient } from "../../adapters/client/index.js"
import { FlagportProvider } from "../../adapters/openfeature/index.js"
import { type Flagport, startFlagport } from "./RealServer.js"
import { startTcpProxy, type TcpProxy } from "./TcpProxy.js"
import { onOff, track } from "./Tracked.js"

const BACKOFF = { initialMs: 1_000, maxMs: 1_000 }
const BOUND_MS = BACKOFF.maxMs + 1_000

let server: Flagport

beforeAll(async () => {
  server = await startFlagport()
  await server.createFlag("steady", "boolean", onOff)
  await server.target("steady", { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
}, 60_000)

afterAll(() => server.close())

/** Resolves when `client` emits `event`; the promise is made before the action that causes it. */
const next = (client: Client, event: "stale" | "recovered"): Promise<void> => new Promise((resolve) => {
  const off = client.on(event, () => (off(), resolve()))
})

/** Milliseconds from now until `happened` settles; fails past `bound`. */
const timeUntil = async (happened: Promise<unknown>, bound: number): Promise<number> => {
  const started = Date.now()
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not within ${bound} ms`)), bound)))
  try {
    await Promise.race([happened, late])
    return Date.now() - started
  } finally {
    clearTimeout(timer)
  }
}

const outage = async (proxy: TcpProxy, client: Client): Promise<number> => {
  const stale = next(client, "stale")
  await proxy.cut()
  await stale
  expect(client.status).toBe("stale")
  const recovered = next(client, "recovered")
  await proxy.restore()
  return timeUntil(recovered, BOUND_MS)
}

describe("after an outage with no change, the client leaves `stale`", () => {
  it("through the stream (polling too slow to help)", async () => {
    const proxy = track(await startTcpProxy(server.port))
    const flags = track(await createClient({ url: proxy.url, key: server.serverKey, environment: "production", backoff: BACKOFF, pollIntervalMs: 60_000 }))
    const etag = flags.etag
    // The stream is up once it has connected: no further reconnection is needed to see it.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await outage(proxy, flags)).toBeLessThan(BOUND_MS)
    expect(flags.status).toBe("ready")
    expect(flags.etag).toBe(etag)
    expect(flags.boolean("steady", { key: "u" }, false)).toBe(true)
  })

  it("through polling alone (stream off)", async () => {
    const proxy = track(await startTcpProxy(server.port))
    const flags = track(await createClient({ url: proxy.url, key: server.serverKey, environment: "production", stream: false, backoff: BACKOFF, pollIntervalMs: 300 }))
    const etag = flags.etag
    expect(await outage(proxy, flags)).toBeLessThan(BOUND_MS)
    expect(flags.status).toBe("ready")
    expect(flags.etag).toBe(etag)
  })

  it("the OpenFeature provider says STALE, then READY again", async () => {
    const proxy = track(await startTcpProxy(server.port))
    const flags = track(await createClient({ url: proxy.url, key: server.serverKey, environment: "production", backoff: BACKOFF, pollIntervalMs: 60_000 }))
    const domain = "flagport-outage"
    await OpenFeature.setProviderAndWait(domain, new FlagportProvider(flags))
    track({ close: () => OpenFeature.close() })
    const client = OpenFeature.getClient(domain)
    const events: Array<string> = []
    const stale = new Promise<void>((resolve) => client.addHandler(ProviderEvents.Stale, () => (events.push("stale"), resolve())))
    await new Promise((resolve) => setTimeout(resolve, 300))
    await proxy.cut()
    await stale
    expect(client.providerStatus).toBe(ProviderStatus.STALE)
    const ready = new Promise<void>((resolve) => client.addHandler(ProviderEvents.Ready, () => (events.push("ready"), resolve())))
    events.length = 0 // READY handlers run at once for a provider already ready; only the one after the outage counts
    await proxy.restore()
    expect(await timeUntil(ready, BOUND_MS)).toBeLessThan(BOUND_MS)
    expect(client.providerStatus).toBe(ProviderStatus.READY)
    expect(events).toEqual(["ready"])
    expect(await client.getBooleanValue("steady", false, { targetingKey: "u" })).toBe(true)
  })
})
