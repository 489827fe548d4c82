/**
 * Metric events from the SDK (`client.track`) and through the real OpenFeature server SDK
 * (`client.track(name, context, { value })` over FlagportProvider) reach `POST /v1/track` of a real
 * server on SQLite and PostgreSQL and count in their units' metric rows: a batch whose answer was
 * lost is resent with its id and counted once; an event the server would refuse is dropped and
 * counted when its batch is made, without costing the others; an event that grew too old while
 * its batch waited to be resent is dropped from it, the rest resent under the same id; a full
 * buffer drops and counts; closing the provider sends what waits.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { OpenFeature } from "@openfeature/server-sdk"
import { Effect } from "effect"
import { createClient } from "../../adapters/client/index.js"
import { realTimers, type Timers } from "../../adapters/client/Timers.js"
import { FlagportProvider } from "../../adapters/openfeature/index.js"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { type ExperimentServer, ingestionWire, startExperimentServer } from "./ExperimentServer.js"

const user = (i: number) => ({ key: `session-${i}`, attributes: { userId: `user-${i}` } })

describe.each(["sqlite", "postgres"] as const)("SDK metric events (%s)", (backend) => {
  let server: ExperimentServer
  beforeAll(async () => {
    server = await startExperimentServer(backend)
  }, 60_000)
  afterAll(async () => {
    await server?.close()
  })

  const metricRows = (metricKey: string) =>
    server.t.run(Effect.flatMap(ExperimentUnitRepository, (repo) => repo.metricRows(server.experimentId))).then((rows) =>
      rows.filter((r) => r.metricKey === metricKey).map((r) => [r.unit, r.variationKey, r.postSum, r.postCount]))

  it("client.track: counted once per event, a lost answer resent with its id, the invalid dropped and counted", async () => {
    const wire = ingestionWire()
    const flags = await createClient({ url: server.t.url, key: server.t.keys.client, environment: "production", sendInsights: false, flushIntervalMs: 3_600_000, fetch: wire.fetch })
    try {
      const served = [0, 1, 2].map((i) => flags.detail("checkout", user(i), false).variationKey)
      flags.track("purchase", "user-0", 30)
      flags.track("purchase", "user-0", 12.5)
      flags.track("purchase", "user-1")
      flags.track("page_load", "user-2", 840)
      flags.track("", "user-2", 1) // no event name
      flags.track("purchase", "x".repeat(257), 1) // a unit too long
      flags.track("purchase", "user-2", Number.POSITIVE_INFINITY)
      flags.track("purchase", "user-2", 2e12) // past 10^12
      flags.track("purchase", "user-\ud800", 1) // a lone surrogate
      wire.next("deliver", "lose-answer") // the exposures go through; the events' answer is lost
      expect(await flags.flush()).toBe(false)
      expect(flags.delivery.events).toMatchObject({ pending: 4, sent: 0, dropped: { invalid: 5 } })
      expect(await flags.flush()).toBe(true)

      const events = wire.sent.filter((s) => s.path === "/v1/track")
      expect(events.map((s) => [s.status, s.body.events!.length, (s.answer as { duplicate: boolean }).duplicate])).toEqual([[202, 4, false], [202, 4, true]])
      expect(events[0]!.body.batchId).toBe(events[1]!.body.batchId)
      expect(events[0]!.body.events![0]).toMatchObject({ event: "purchase", unit: "user-0", value: 30 })
      expect(Object.keys(events[0]!.body.events![2]!).sort()).toEqual(["event", "timestamp", "unit"]) // no value: none sent
      expect(flags.delivery.events).toEqual({ pending: 0, sent: 4, dropped: { full: 0, refused: 0, invalid: 5, expired: 0, closed: 0 } })
      expect(await metricRows("revenue")).toEqual([["user-0", served[0], 42.5, 2], ["user-1", served[1], 1, 1]])
      expect(await metricRows("speed")).toEqual([["user-2", served[2], 840, 1]])
    } finally {
      await flags.close()
    }
  })

  it("a held batch whose oldest event grew too old is resent without it, under its id: the rest counted once", async () => {
    const HOUR = 3_600_000
    let offset = -(24 * HOUR - 120_000) // the SDK's clock: 23 h 58 min behind
    const timers: Timers = { ...realTimers, now: () => Date.now() + offset }
    const wire = ingestionWire()
    const flags = await createClient({ url: server.t.url, key: server.t.keys.client, environment: "production", sendInsights: false, flushIntervalMs: 3_600_000, exposures: false, timers, fetch: wire.fetch })
    try {
      flags.track("purchase", "late-0", 1) // 23 h 58 min old by the end
      offset = -600_000
      flags.track("purchase", "late-1", 2) // 10 min old
      wire.next("lose-answer") // the server writes the batch; its answer is lost
      expect(await flags.flush()).toBe(false)
      offset = 0 // the first event is now past what the SDK sends (24 h less 5 min)
      expect(await flags.flush()).toBe(true)
      expect(wire.sent.map((s) => [s.body.events!.map((e) => e.unit), (s.answer as { duplicate: boolean }).duplicate])).toEqual([
        [["late-0", "late-1"], false],
        [["late-1"], true] // the same id: what the lost answer had written counts once
      ])
      expect(wire.sent[1]!.body.batchId).toBe(wire.sent[0]!.body.batchId)
      expect(flags.delivery.events).toEqual({ pending: 0, sent: 1, dropped: { full: 0, refused: 0, invalid: 0, expired: 1, closed: 0 } })
      // Held while every event grows too old: nothing is sent, all counted as expired.
      offset = -(24 * HOUR - 120_000)
      flags.track("purchase", "late-2", 3)
      wire.next("down")
      expect(await flags.flush()).toBe(false)
      offset = 0
      expect(await flags.flush()).toBe(true)
      expect(wire.sent.length).toBe(3)
      expect(flags.delivery.events).toMatchObject({ pending: 0, sent: 1, dropped: { expired: 2 } })
    } finally {
      await flags.close()
    }
  })

  it("a full buffer drops and counts; what it holds is sent once the server is back", async () => {
    const wire = ingestionWire()
    const flags = await createClient({ url: server.t.url, key: server.t.keys.client, environment: "production", sendInsights: false, flushIntervalMs: 3_600_000, maxQueuedItems: 5, exposures: false, fetch: wire.fetch })
    wire.always("down")
    for (let i = 0; i < 8; i++) flags.track("page_load", `nobody-${i}`, i)
    expect(await flags.flush()).toBe(false)
    flags.track("page_load", "nobody-9", 9) // the batch waiting to be resent fills the buffer
    expect(flags.delivery.events).toMatchObject({ pending: 5, sent: 0, dropped: { full: 4 } })
    wire.always("deliver")
    await flags.close()
    expect(flags.delivery.events).toMatchObject({ pending: 0, sent: 5, dropped: { full: 4 } })
    const ids = wire.sent.map((s) => s.body.batchId)
    expect(new Set(ids).size).toBe(1) // one batch, tried twice
  })

  it("OpenFeature's client.track reaches POST /v1/track through FlagportProvider; onClose sends what waits", async () => {
    const wire = ingestionWire()
    const provider = new FlagportProvider({ url: server.t.url, key: server.t.keys.client, environment: "production", sendInsights: false, flushIntervalMs: 3_600_000, fetch: wire.fetch })
    await OpenFeature.setProviderAndWait(`tracking-${backend}`, provider)
    const client = OpenFeature.getClient(`tracking-${backend}`)
    client.setContext({ plan: "pro" })
    const variant = (await client.getBooleanDetails("checkout", false, { targetingKey: "session-10", userId: "user-10" })).variant
    client.track("purchase", { targetingKey: "user-10" }, { value: 99 })
    client.track("purchase", { targetingKey: "session-11" }, { value: 5, unit: "user-10" }) // a rollout by userId: the unit passed
    client.track("page_load", {}, { value: 3 }) // no unit: dropped and counted
    await OpenFeature.clearProviders()
    const events = wire.sent.filter((s) => s.path === "/v1/track")
    expect(events.map((s) => s.body.events!.map((e) => [e.event, e.unit, e.value]))).toEqual([[["purchase", "user-10", 99], ["purchase", "user-10", 5]]])
    expect(wire.sent.filter((s) => s.path === "/v1/exposures").map((s) => s.body.exposures!.map((e) => [e.unit, e.variationKey]))).toEqual([[["user-10", variant]]])
    expect((await metricRows("revenue")).filter(([unit]) => unit === "user-10")).toEqual([["user-10", variant, 104, 2]])
  })
})
