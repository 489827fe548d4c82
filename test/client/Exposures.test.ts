/**
 * The SDK sends the exposures of its own evaluations, through a real server on SQLite and
 * PostgreSQL: only for the rule a running experiment measures (known from `GET /v1/config`, picked
 * up from the stream when the experiment starts), with the rollout's `bucketBy` value as the unit,
 * once per (unit, flag, variation) per flush window, in batches of at most 1,000 with a batch id;
 * a batch whose answer was lost is resent with the same id and counted once; a full buffer drops
 * and counts; `close()` flushes; an evaluation never waits for a send; `onEvaluation` still sees
 * every evaluation; `exposures: false` sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Client, createClient, type EvaluationEvent } from "../../adapters/client/index.js"
import { type ExperimentServer, ingestionWire, startExperimentServer } from "./ExperimentServer.js"

const waitFor = async (what: string, check: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const user = (i: number, beta = false) => ({ key: `session-${i}`, attributes: { userId: `user-${i}`, beta } })

describe.each(["sqlite", "postgres"] as const)("SDK exposures (%s)", (backend) => {
  let server: ExperimentServer & { readonly start: () => Promise<string> }
  beforeAll(async () => {
    server = await startExperimentServer(backend, { start: false })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
  })

  const open = (wire: ReturnType<typeof ingestionWire>, options: Record<string, unknown> = {}): Promise<Client> =>
    createClient({ url: server.t.url, key: server.t.keys.client, environment: "production", sendInsights: false, flushIntervalMs: 3_600_000, fetch: wire.fetch, ...options })

  it("sends the measured rule's exposures once per unit, flag and variation, from the experiment's start, with the rollout's unit", async () => {
    const wire = ingestionWire()
    const seen: Array<EvaluationEvent> = []
    const flags = await open(wire, { onEvaluation: (event: EvaluationEvent) => seen.push(event) })
    try {
      flags.boolean("checkout", user(0), false)
      await flags.flush()
      expect(wire.sent).toEqual([]) // no experiment runs yet: nothing is an exposure
      const before = flags.etag
      await server.start()
      await waitFor("the configuration naming the experiment", () => flags.etag !== before)

      const served = new Map<string, string>()
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 40; i++) {
          const detail = flags.detail("checkout", user(i), false)
          served.set(`user-${i}`, detail.variationKey!)
          flags.boolean("checkout", user(i), false)
        }
        for (let i = 100; i < 105; i++) flags.boolean("checkout", user(i, true), false) // the beta rule: not measured
        for (let i = 0; i < 10; i++) flags.string("banner", user(i), "") // a rollout no experiment measures
        flags.number("checkout", user(1), 0) // the wrong type: the caller got the fallback
      }
      expect(seen.length).toBe(1 + 3 * (80 + 5 + 10 + 1)) // the hook sees everything
      expect(flags.delivery.exposures.pending).toBe(40)
      expect(await flags.flush()).toBe(true)

      expect(wire.sent.map((s) => [s.path, s.status, s.body.exposures!.length])).toEqual([["/v1/exposures", 202, 40]])
      expect(wire.sent[0]!.answer).toEqual({ accepted: 40, dropped: 0, duplicate: false })
      const exposure = wire.sent[0]!.body.exposures![0]!
      expect(Object.keys(exposure).sort()).toEqual(["flagKey", "ruleId", "timestamp", "unit", "variationKey"])
      expect(exposure).toMatchObject({ flagKey: "checkout", ruleId: "half", unit: "user-0" })
      const rows = await server.units()
      expect(rows.map((r) => [r.unit, r.variationKey, r.variationsSeen])).toEqual([...served].sort(([a], [b]) => (a < b ? -1 : 1)).map(([u, v]) => [u, v, 1]))
      expect(flags.delivery.exposures).toEqual({ pending: 0, sent: 40, dropped: { full: 0, refused: 0, invalid: 0, expired: 0, closed: 0 } })

      // A new flush window: the same units are sent again (once each).
      for (let i = 0; i < 40; i++) flags.boolean("checkout", user(i), false)
      await flags.flush()
      expect(wire.sent.map((s) => s.body.exposures!.length)).toEqual([40, 40])
      expect(wire.sent[0]!.body.batchId).not.toBe(wire.sent[1]!.body.batchId)
    } finally {
      await flags.close()
    }
  })

  it("batches by 1,000 as soon as a batch is full; a batch whose answer was lost is resent with its id and counted once", async () => {
    const wire = ingestionWire()
    const flags = await open(wire)
    try {
      wire.next("lose-answer")
      for (let i = 1000; i < 3500; i++) flags.boolean("checkout", user(i), false)
      // The first full batch went out on its own (no flush called), its answer lost: it waits to be resent.
      await waitFor("a batch", () => wire.sent.length === 1)
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(flags.delivery.exposures).toMatchObject({ pending: 2500, sent: 0 })
      expect(await flags.flush()).toBe(true)
      const ids = wire.sent.map((s) => s.body.batchId)
      expect(wire.sent.map((s) => s.body.exposures!.length)).toEqual([1000, 1000, 1000, 500])
      expect(ids[0]).toBe(ids[1]) // the resend
      expect(new Set(ids).size).toBe(3)
      expect(wire.sent.map((s) => (s.answer as { duplicate: boolean }).duplicate)).toEqual([false, true, false, false])
      expect(flags.delivery.exposures).toMatchObject({ pending: 0, sent: 2500 })
      const rows = (await server.units()).filter((r) => r.unit >= "user-1000" && r.unit <= "user-3499" && r.unit.length === 9)
      expect(rows.length).toBe(2500)
      expect(rows.every((r) => r.variationsSeen === 1)).toBe(true)
    } finally {
      await flags.close()
    }
  })

  it("drops and counts what a full buffer cannot hold; evaluations answer while a send hangs; close() flushes", async () => {
    const wire = ingestionWire()
    const flags = await open(wire, { maxQueuedItems: 10, requestTimeoutMs: 60_000 })
    wire.always("hang")
    for (let i = 5000; i < 5025; i++) flags.boolean("checkout", user(i), false)
    expect(flags.delivery.exposures).toMatchObject({ pending: 10, dropped: { full: 15 } })
    const hanging = flags.flush()
    await waitFor("the hanging send", () => wire.sent.length === 1)
    // The send is in flight and never ends: evaluations still answer at once, and queue behind it.
    const before = flags.delivery.exposures.dropped.full
    for (let i = 6000; i < 6010; i++) expect(typeof flags.boolean("checkout", user(i), false)).toBe("boolean")
    expect(flags.delivery.exposures.dropped.full).toBe(before + 10) // the held batch counts against the bound
    expect(wire.sent.length).toBe(1)
    wire.always("deliver")
    // close() ends the hanging send (its signal) and sends what is held, once more, with its id.
    await flags.close()
    await hanging
    expect(wire.sent.length).toBe(2)
    expect(wire.sent[1]!.body.batchId).toBe(wire.sent[0]!.body.batchId)
    expect(flags.delivery.exposures).toMatchObject({ pending: 0, sent: 10, dropped: { full: 25 } })
    const units = new Set((await server.units()).map((r) => r.unit))
    for (let i = 5000; i < 5010; i++) expect(units.has(`user-${i}`)).toBe(true)
    expect(units.has("user-5010")).toBe(false)
    flags.boolean("checkout", user(7000), false)
    expect(flags.delivery.exposures.dropped.closed).toBe(1)
  })

  it("with exposures: false, sends none; onEvaluation still sees every evaluation", async () => {
    const wire = ingestionWire()
    let seen = 0
    const flags = await open(wire, { exposures: false, onEvaluation: () => seen++ })
    for (let i = 0; i < 20; i++) flags.boolean("checkout", user(i), false)
    await flags.close()
    expect(seen).toBe(20)
    expect(wire.sent).toEqual([])
    expect(flags.delivery.exposures.sent).toBe(0)
  })
})

describe("the options of exposures and metric events", () => {
  it("refuse a mistake at start-up, with a clear message", async () => {
    const base = { url: "http://127.0.0.1:9", key: "cli_x", environment: "production" }
    await expect(createClient({ ...base, exposures: "yes" as unknown as boolean })).rejects.toThrow("flagport: exposures must be true or false")
    await expect(createClient({ ...base, maxQueuedItems: 0 })).rejects.toThrow("flagport: maxQueuedItems must be a whole number of at least 1")
    await expect(createClient({ ...base, maxQueuedItems: 2.5 })).rejects.toThrow("flagport: maxQueuedItems must be a whole number of at least 1")
    await expect(createClient({ ...base, flushIntervalMs: -1 })).rejects.toThrow("flagport: flushIntervalMs must be a positive number of milliseconds")
  })
})
