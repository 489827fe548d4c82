/**
 * `createClient` against a real Flagport (SQLite file) and, for misbehaviour a real server never
 * shows, a fake one: changes reach it within the poll interval, it keeps answering while the
 * server is down and recovers when it is back, it starts from a bootstrap with no server, it
 * resolves after the start timeout and recovers, a broken configuration never replaces a good
 * one, stream events trigger conditional refetches, and the Effect layer closes it.
 */
import { writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, vi } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { type Client, type ConfigSnapshot, createClient } from "../../adapters/client/index.js"
import { FlagportClient } from "../../adapters/client/FlagportClient.js"
import { freePort } from "../cli/Process.js"
import { FakeFlagport } from "./FakeFlagport.js"
import { type Flagport, startFlagport } from "./RealServer.js"
import { onOff, track } from "./Tracked.js"


const config = (flags: ReadonlyArray<Record<string, unknown>>) => ({ environment: "production", flags, segments: [] }) as unknown as ConfigSnapshot
const boolFlag = (key: string, serve: "on" | "off", version?: number) => ({
  key,
  type: "boolean",
  enabled: true,
  variations: onOff,
  defaultVariationKey: serve,
  offVariationKey: "off",
  rules: [],
  ...(version === undefined ? {} : { version })
})

const withFlag = async (server: Flagport, key: string, serve: "on" | "off") => {
  await server.createFlag(key, "boolean", onOff)
  await server.target(key, { enabled: true, defaultVariationKey: serve, offVariationKey: "off", rules: [] })
}

const within = async (ms: number, check: () => boolean): Promise<number> => {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 10))
  }
  return Date.now() - started
}

describe("createClient against a real server", () => {
  it("serves the environment and picks up a change made through the management API within the poll interval", async () => {
    const server = track(await startFlagport())
    await withFlag(server, "fresh", "off")
    const flags = track(await createClient({ url: server.url, key: server.serverKey, environment: "production", stream: false, pollIntervalMs: 300 }))
    expect(flags.status).toBe("ready")
    expect(flags.boolean("fresh", { key: "u" }, true)).toBe(false)
    const changes: Array<ReadonlyArray<string>> = []
    flags.on("change", (keys) => changes.push(keys))

    await server.target("fresh", { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
    const tookMs = await within(2_000, () => flags.boolean("fresh", { key: "u" }, false))
    expect(tookMs).toBeLessThan(300 + 500) // one poll interval, plus a request on a loaded machine
    expect(changes).toEqual([["fresh"]])
    // A change in another environment is no change for this client.
    await server.target("fresh", { enabled: false, defaultVariationKey: "on", offVariationKey: "off", rules: [] }, "development")
    await new Promise((r) => setTimeout(r, 700))
    expect(changes).toEqual([["fresh"]])
  })

  it("keeps answering from its last configuration while the server is down, and recovers when it is back", async () => {
    const server = track(await startFlagport())
    await withFlag(server, "kept", "on")
    const flags = track(await createClient({ url: server.url, key: server.clientKey, environment: "production", pollIntervalMs: 200 }))
    const events: Array<string> = []
    flags.on("stale", () => events.push("stale"))
    flags.on("recovered", () => events.push("recovered"))
    expect(flags.boolean("kept", { key: "u" }, false)).toBe(true)

    await server.stop()
    await within(3_000, () => flags.status === "stale")
    expect(events).toEqual(["stale"])
    expect(flags.boolean("kept", { key: "u" }, false)).toBe(true)
    expect(flags.detail("kept", { key: "u" }, false)).toMatchObject({ value: true, variationKey: "on", reason: { kind: "FALLTHROUGH" } })

    await server.restart()
    await within(5_000, () => flags.status === "ready")
    expect(events).toEqual(["stale", "recovered"])
    await server.target("kept", { enabled: false, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
    await within(3_000, () => flags.boolean("kept", { key: "u" }, true) === false)
  })

  it("resolves after the start timeout with no server, serves fallbacks, and becomes ready when the server comes up", async () => {
    // A seeded database whose server is down; the client is pointed at a port where it will come up.
    const server = track(await startFlagport())
    await withFlag(server, "late", "on")
    await server.stop()
    const port = await freePort()
    const started = Date.now()
    const flags = track(
      await createClient({ url: `http://127.0.0.1:${port}`, key: server.clientKey, environment: "production", startTimeoutMs: 400, backoff: { initialMs: 100, maxMs: 400 } })
    )
    expect(Date.now() - started).toBeGreaterThanOrEqual(390)
    expect(flags.status).toBe("starting")
    expect(flags.boolean("late", { key: "u" }, false)).toBe(false)
    expect(flags.detail("late", { key: "u" }, "x")).toEqual({
      flagKey: "late",
      value: "x",
      variationKey: null,
      reason: { kind: "ERROR", error: "no configuration yet: the server has not answered" },
      errorCode: "PROVIDER_NOT_READY"
    })
    expect(flags.all({ key: "u" })).toEqual({})
    const ready = new Promise<void>((resolve) => flags.on("ready", resolve))
    const seen: Array<string> = []
    for (const event of ["ready", "recovered", "stale"] as const) flags.on(event, () => seen.push(event))

    await server.restart(port)
    await ready
    expect(flags.status).toBe("ready")
    expect(seen).toEqual(["ready"]) // a first configuration is `ready`, not a recovery
    expect(flags.boolean("late", { key: "u" }, false)).toBe(true)
  })

  it("starts from a bootstrap configuration (inline or a file) with no server at all", async () => {
    const port = await freePort()
    const bootstrap = config([boolFlag("boot", "on")])
    const started = Date.now()
    const inline = track(await createClient({ url: `http://127.0.0.1:${port}`, key: "k", environment: "production", bootstrap, startTimeoutMs: 10_000 }))
    // No waiting for the start timeout: the server's refusal is known at once.
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(inline.boolean("boot", { key: "u" }, false)).toBe(true)
    expect(inline.status).toBe("stale")

    const file = join(tmpdir(), `flagport-bootstrap-${process.pid}-${Date.now()}.json`)
    writeFileSync(file, JSON.stringify(bootstrap))
    const fromFile = track(await createClient({ url: `http://127.0.0.1:${port}`, key: "k", bootstrap: file }))
    expect(fromFile.detail("boot", { key: "u" }, false)).toMatchObject({ value: true, reason: { kind: "FALLTHROUGH" } })

    await expect(createClient({ url: `http://127.0.0.1:${port}`, key: "k", bootstrap: join(tmpdir(), "no-such-flagport.json") })).rejects.toThrow(/cannot read the bootstrap file/)
    await expect(createClient({ url: `http://127.0.0.1:${port}`, key: "k", bootstrap: { environment: "p", flags: [{}], segments: [] } as never })).rejects.toThrow(
      /bootstrap configuration is invalid: flags\[0\]\.key must be a string/
    )
  })

  it("rejects invalid options with a clear message", async () => {
    await expect(createClient({ url: "flags.example.com", key: "k" })).rejects.toThrow("flagport: url must be an http(s) URL")
    await expect(createClient({ url: "http://x", key: "" })).rejects.toThrow("flagport: key must be a non-empty API key")
    await expect(createClient({ url: "http://x", key: "k", pollIntervalMs: -1 })).rejects.toThrow("flagport: pollIntervalMs must be a positive number of milliseconds")
  })
})

describe("createClient against a misbehaving server", () => {
  const start = async () => {
    const fake = track(await FakeFlagport.start())
    fake.serve(config([boolFlag("f", "on", 1)]), 'W/"1"')
    return fake
  }

  it("refuses a malformed or schema-invalid configuration and keeps the previous one", async () => {
    const fake = await start()
    const flags: Client = track(await createClient({ url: fake.url, key: "k", environment: "production", stream: false, pollIntervalMs: 100 }))
    const errors: Array<string> = []
    flags.on("error", (message) => errors.push(message))
    expect(flags.boolean("f", { key: "u" }, false)).toBe(true)

    fake.config = "{ not json"
    fake.etag = 'W/"2"'
    await within(2_000, () => errors.length === 1)
    expect(errors[0]).toBe("refused a configuration from the server, kept the previous one: the configuration is not JSON")

    fake.serve({ environment: "production", flags: [{ ...boolFlag("f", "off", 3), enabled: "yes" }], segments: [] }, 'W/"3"')
    await within(2_000, () => errors.length === 2)
    expect(errors[1]).toBe("refused a configuration from the server, kept the previous one: flags[0].enabled must be a boolean")
    expect(flags.boolean("f", { key: "u" }, false)).toBe(true)
    expect(flags.etag).toBe('W/"1"')
    // The refused ETags were never offered back as If-None-Match: the next good body is taken.
    expect(fake.requests.filter((r) => r.path === "/v1/config").map((r) => r.ifNoneMatch)).not.toContain('W/"3"')

    fake.serve(config([boolFlag("f", "off", 4)]), 'W/"4"')
    await within(2_000, () => flags.boolean("f", { key: "u" }, true) === false)
    expect(flags.status).toBe("ready")
  })

  it("a stream event triggers a conditional refetch; an event for the ETag held triggers none", async () => {
    const fake = await start()
    fake.stream = "open"
    const flags = track(await createClient({ url: fake.url, key: "k", environment: "production", pollIntervalMs: 60_000 }))
    const changes: Array<ReadonlyArray<string>> = []
    flags.on("change", (keys) => changes.push(keys))
    await within(2_000, () => fake.openStreams === 1)
    const configRequests = () => fake.requests.filter((r) => r.path === "/v1/config")
    await new Promise((r) => setTimeout(r, 200))
    const before = configRequests().length
    fake.announce() // same ETag: nothing to fetch
    await new Promise((r) => setTimeout(r, 200))
    expect(configRequests()).toHaveLength(before)

    fake.serve(config([boolFlag("f", "off", 2), boolFlag("g", "on", 1)]), 'W/"2"')
    fake.announce()
    await within(2_000, () => flags.boolean("f", { key: "u" }, true) === false)
    expect(configRequests().at(-1)).toMatchObject({ ifNoneMatch: 'W/"1"', authorization: "Bearer k" })
    expect(changes).toEqual([["f", "g"]])
    expect(flags.detail("g", { key: "u" }, false)).toMatchObject({ value: true, version: 1 })
  })

  it("a refetch that fails while the stream stays up makes it stale; polling retries until the server answers", async () => {
    const fake = await start()
    fake.stream = "open"
    const flags = track(await createClient({ url: fake.url, key: "k", environment: "production", pollIntervalMs: 60_000, backoff: { initialMs: 200, maxMs: 200 } }))
    await within(2_000, () => fake.openStreams === 1)
    const recovered = new Promise<void>((resolve) => flags.on("recovered", resolve))
    fake.configStatus = 503
    fake.serve(config([boolFlag("f", "off", 2)]), 'W/"2"')
    fake.announce()
    await within(2_000, () => flags.status === "stale")
    expect(fake.openStreams).toBe(1) // the stream never dropped: nothing reconnects to end `stale`
    fake.configStatus = 200
    await recovered
    expect(flags.boolean("f", { key: "u" }, true)).toBe(false)
    expect(flags.status).toBe("ready")
  })

  it("429 says \"later\", not \"no\": no rejection at start, `stale` (not `error`) while running, and retried on the usual schedule", async () => {
    const fake = await start()
    fake.configStatus = 429
    const flags = track(await createClient({ url: fake.url, key: "k", environment: "production", stream: false, startTimeoutMs: 300, pollIntervalMs: 100, backoff: { initialMs: 50, maxMs: 100 } }))
    expect(flags.status).toBe("starting")
    fake.configStatus = 200
    await within(2_000, () => flags.status === "ready")
    const events: Array<string> = []
    flags.on("stale", (message) => events.push(`stale ${message}`))
    flags.on("error", (message) => events.push(`error ${message}`))
    fake.configStatus = 429
    await within(2_000, () => flags.status === "stale")
    fake.configStatus = 200
    await within(2_000, () => flags.status === "ready")
    expect(events).toEqual(["stale 429: fake 429"])
    expect(flags.refusal).toBeUndefined()
  })

  it("the Effect layer provides the client and closes it with its scope", async () => {
    const fake = await start()
    fake.stream = "open"
    const value = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const flags = yield* FlagportClient
          yield* Effect.promise(() => within(2_000, () => fake.openStreams === 1))
          return flags.boolean("f", { key: "u" }, false)
        }).pipe(Effect.provide(Layer.fresh(FlagportClient.layer({ url: fake.url, key: "k", environment: "production" }))))
      )
    )
    expect(value).toBe(true)
    await vi.waitFor(() => expect(fake.openStreams).toBe(0))
    const failed = await Effect.runPromiseExit(Effect.provide(FlagportClient, FlagportClient.layer({ url: "nope", key: "k" })))
    expect(Exit.isFailure(failed) && JSON.stringify(failed.cause)).toContain("FlagportClientError")
  })
})
