/**
 * The SDK's stream consumer against a real Flagport's `GET /v1/stream` (the fake server of
 * Client.test.ts covers what a real server never does). Polling is slowed to a minute, so only
 * the stream can bring a change in time.
 */
import { describe, expect, it } from "@effect/vitest"
import { createClient } from "../../adapters/client/index.js"
import { startFlagport } from "./RealServer.js"
import { onOff, track } from "./Tracked.js"

const within = async (ms: number, check: () => boolean): Promise<number> => {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 10))
  }
  return Date.now() - started
}

const targeting = (serve: "on" | "off") => ({ enabled: true, defaultVariationKey: serve, offVariationKey: "off", rules: [] })

describe("createClient on a real server's stream", () => {
  it("picks up changes through the stream (not the poll), ignores other environments, and follows a restarted server", async () => {
    const server = track(await startFlagport())
    await server.createFlag("live", "boolean", onOff)
    await server.target("live", targeting("off"))
    const flags = track(await createClient({ url: server.url, key: server.clientKey, environment: "production", pollIntervalMs: 60_000 }))
    expect(flags.boolean("live", { key: "u" }, true)).toBe(false)
    const changes: Array<ReadonlyArray<string>> = []
    flags.on("change", (keys) => changes.push(keys))
    await new Promise((r) => setTimeout(r, 300)) // the stream is connected

    await server.target("live", targeting("on"))
    expect(await within(2_000, () => flags.boolean("live", { key: "u" }, false))).toBeLessThan(2_000)
    expect(changes).toEqual([["live"]])

    await server.target("live", targeting("off"), "development")
    await new Promise((r) => setTimeout(r, 500))
    expect(changes).toEqual([["live"]])

    // The server goes away and comes back: the stream reconnects and carries the next change.
    await server.stop()
    await server.restart()
    await server.target("live", targeting("off"))
    await within(10_000, () => flags.boolean("live", { key: "u" }, true) === false)
    expect(changes).toEqual([["live"], ["live"]])
  })
})
