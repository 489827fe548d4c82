/**
 * The insights use case over the memory storage, with time driven by TestClock: the periodic
 * flush (every 10 s, never sooner), a failed flush that writes nothing and retries its counts,
 * SDK reports, the series window, and `stale` following `lastEvaluatedAt`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer, TestClock } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import type { Principal } from "../../src/domain/auth/ApiKey.js"
import { InsightsRepository } from "../../src/ports/InsightsRepository.js"
import { StorageError } from "../../src/ports/StorageError.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import * as Insights from "../../src/services/insights/Insights.js"
import { Projects } from "../../src/services/projects/Projects.js"

/** A server key of project p, as the SDK reporting its counts sends them. */
const keyOfP: Principal = { _tag: "ProjectServer", keyId: "k", projectId: "p", environment: null }

const START = Date.parse("2026-11-23T14:00:00.000Z")
const DAY = Duration.days(1)

const boolean = (key: string) => ({
  key,
  type: "boolean" as const,
  variations: [{ key: "on", value: true }, { key: "off", value: false }]
})

/**
 * The memory storage with the Insights service in the test's scope: with its flushing fiber, or
 * (`periodic: false`, for tests that move the clock by days) flushed only when the test says.
 */
const withInsights = (storage: Layer.Layer<StorageLayer.Storage> = StorageLayer.memoryStorage, periodic = true) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(START)
    const service = periodic ? Insights.layer : Layer.effect(Insights.Insights, Insights.make)
    const context = yield* Layer.build(service.pipe(Layer.provideMerge(storage)))
    const run = <A, E>(effect: Effect.Effect<A, E, Insights.Insights | StorageLayer.Storage>) => Effect.provide(effect, context)
    yield* run(Effect.gen(function* () {
      yield* (yield* Projects).create({ id: "p", name: "P" })
      yield* (yield* Environments).create("p", { key: "production", name: "Production" })
      yield* (yield* Environments).create("p", { key: "staging", name: "Staging" })
      yield* (yield* Flags).create("p", boolean("f"))
    }))
    return { run, insights: Context.get(context, Insights.Insights), repo: Context.get(context, InsightsRepository) }
  })

const seriesTotals = (insights: Insights.InsightsShape, environment = "production") =>
  Effect.map(insights.series("p", "f", { environment }), (s) => Object.fromEntries(s.variations.map((v) => [v.variationKey, v.total])))

describe("Insights", () => {
  it.scoped("flushes what was counted every 10 s, into the hour of the flush", () =>
    Effect.gen(function* () {
      const { insights, repo } = yield* withInsights()
      for (let i = 0; i < 5; i++) insights.counter.count("p", "production", "f", "on")
      insights.counter.count("p", "production", "f", "off")
      yield* TestClock.adjust(Duration.seconds(9))
      expect(yield* repo.series("p", "production", "f", "2026-11-23T14:00:00.000Z", "2026-11-23T14:00:00.000Z")).toEqual([])
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* seriesTotals(insights)).toEqual({ on: 5, off: 1 })
      expect(yield* repo.lastEvaluated("p")).toEqual([{ projectId: "p", environmentKey: "production", flagKey: "f", at: "2026-11-23T14:00:10.000Z" }])
      // Nothing new counted: the next flush writes nothing, and adds nothing twice.
      yield* TestClock.adjust(Duration.seconds(10))
      expect(yield* seriesTotals(insights)).toEqual({ on: 5, off: 1 })
    }))

  it.scoped("a flush that fails writes nothing; its counts are written by the next one", () =>
    Effect.gen(function* () {
      const base = yield* Layer.build(StorageLayer.memoryStorage)
      const real = Context.get(base, InsightsRepository)
      let failures = 1
      const flaky = InsightsRepository.of({
        ...real,
        add: (counts, last) =>
          failures-- > 0 ? Effect.fail(new StorageError({ message: "database unavailable" })) : real.add(counts, last)
      })
      const { insights } = yield* withInsights(Layer.succeedContext(Context.add(base, InsightsRepository, flaky)))
      insights.counter.count("p", "production", "f", "on")
      yield* TestClock.adjust(Duration.seconds(10))
      expect(yield* seriesTotals(insights)).toEqual({ on: 0, off: 0 })
      insights.counter.count("p", "production", "f", "on")
      yield* TestClock.adjust(Duration.seconds(10))
      expect(yield* seriesTotals(insights)).toEqual({ on: 2, off: 0 })
    }))

  it.scoped("SDK reports land in the hour of `to` (never a future one); unknown flags and variations are ignored", () =>
    Effect.gen(function* () {
      const { insights } = yield* withInsights(StorageLayer.memoryStorage, false)
      yield* TestClock.adjust(Duration.hours(2))
      const receipt = yield* insights.report(keyOfP, {
        environment: "production",
        from: "2026-11-23T14:30:00Z",
        to: "2026-11-23T14:59:00Z",
        counts: [
          { flagKey: "f", variationKey: "on", count: 40 },
          { flagKey: "f", variationKey: "maybe", count: 1 },
          { flagKey: "gone", variationKey: "on", count: 1 }
        ]
      })
      expect(receipt).toEqual({ accepted: 1, ignored: 2 })
      // Up to 5 minutes ahead of the server's clock is taken, into the current hour.
      yield* insights.report(keyOfP, {
        environment: "production",
        from: "2026-11-23T16:00:00Z",
        to: "2026-11-23T16:04:00Z",
        counts: [{ flagKey: "f", variationKey: "off", count: 2 }]
      })
      yield* insights.flush
      const series = yield* insights.series("p", "f", { environment: "production", from: "2026-11-23T14:00:00Z", to: "2026-11-23T16:30:00Z" })
      expect(series.variations.map((v) => [v.variationKey, v.points.map((p) => p.count)])).toEqual([
        ["on", [40, 0, 0]],
        ["off", [0, 0, 2]]
      ])
    }))

  it.scoped("a failed flush retries each project on its own: one project's bad rows hold back no other's, and go after 3 tries", () =>
    Effect.gen(function* () {
      const base = yield* Layer.build(StorageLayer.memoryStorage)
      const real = Context.get(base, InsightsRepository)
      let writes = 0
      const refusing = InsightsRepository.of({
        ...real,
        add: (counts, last) => {
          writes++
          return counts.some((c) => c.projectId === "bad") ? Effect.fail(new StorageError({ message: "row refused" })) : real.add(counts, last)
        }
      })
      const { insights } = yield* withInsights(Layer.succeedContext(Context.add(base, InsightsRepository, refusing)), false)
      const pendingOf = (projectId: string) => Effect.sync(() => {
        const pending = insights.counter.drain()
        insights.counter.restore(pending)
        return pending.filter((p) => p.projectId === projectId).length
      })
      insights.counter.count("bad", "production", "f", "on")
      for (let round = 1; round <= 3; round++) {
        insights.counter.count("p", "production", "f", "on")
        expect((yield* Effect.exit(insights.flush))._tag).toBe("Failure")
        expect(yield* seriesTotals(insights)).toEqual({ on: round, off: 0 })
        // Kept for the next flush until its third failure, then dropped (and logged).
        expect(yield* pendingOf("bad")).toBe(round < 3 ? 1 : 0)
      }
      expect(writes).toBe(9)
    }))

  it.scoped("hourly counts older than the retention are deleted at start and by each run", () =>
    Effect.gen(function* () {
      const storage = yield* Layer.build(StorageLayer.memoryStorage)
      const repo = Context.get(storage, InsightsRepository)
      yield* repo.add([{ projectId: "p", environmentKey: "production", flagKey: "f", variationKey: "on", hour: "2026-11-20T14:00:00.000Z", count: 1 }], [])
      yield* TestClock.setTime(START)
      const hours = Effect.map(repo.series("p", "production", "f", "2026-01-01", "2027-01-01"), (rows) => rows.map((r) => r.hour))
      // At start: the row of 3 days ago goes, with a retention of 2 days.
      yield* Effect.scoped(Effect.gen(function* () {
        yield* Layer.build(Insights.layer.pipe(Layer.provide(Layer.succeedContext(Context.add(storage, Insights.RetentionDays, 2)))))
        yield* TestClock.adjust(Duration.millis(1))
        expect(yield* hours).toEqual([])
      }))
      // Then each run deletes what has grown older than 2 days.
      const insights = yield* Insights.make.pipe(Effect.provideService(Insights.RetentionDays, 2), Effect.provide(storage))
      yield* repo.add([{ projectId: "p", environmentKey: "production", flagKey: "f", variationKey: "on", hour: "2026-11-23T14:00:00.000Z", count: 1 }], [])
      yield* TestClock.setTime(START + 47 * 3_600_000)
      expect(yield* insights.prune).toBe(0)
      expect(yield* hours).toEqual(["2026-11-23T14:00:00.000Z"])
      yield* TestClock.setTime(START + 49 * 3_600_000)
      expect(yield* insights.prune).toBe(1)
      expect(yield* hours).toEqual([])
    }))

  it.scoped("the series window is checked: from after to, longer than 31 days, unknown environment or flag", () =>
    Effect.gen(function* () {
      const { insights } = yield* withInsights()
      const failure = (query: Parameters<typeof insights.series>[2], flagKey = "f") =>
        Effect.flip(insights.series("p", flagKey, query)).pipe(Effect.map((e) => [e._tag, e.message, "details" in e ? e.details : undefined]))
      expect(yield* failure({ environment: "production", from: "2026-11-23T15:00:00Z", to: "2026-11-23T14:00:00Z" })).toEqual([
        "InvalidRequest", "The request is invalid.", [{ path: "from", message: "must not be after to" }]
      ])
      expect((yield* failure({ environment: "production", from: "2026-10-01T00:00:00Z", to: "2026-11-23T14:00:00Z" }))[2]).toEqual([
        { path: "from", message: "the window may span at most 744 hours" }
      ])
      expect(yield* failure({ environment: "nowhere" })).toEqual(["ResourceNotFound", "Environment 'nowhere' not found in project 'p'", undefined])
      expect(yield* failure({ environment: "production" }, "nope")).toEqual(["ResourceNotFound", "Flag 'nope' not found in project 'p'", undefined])
    }))

  it.scoped("stale follows lastEvaluatedAt: older than the threshold and evaluated nowhere within it", () =>
    Effect.gen(function* () {
      const { insights, run } = yield* withInsights(StorageLayer.memoryStorage, false)
      // The flag as the Flags use case answers it (the default stale period, 30 days).
      const status = Effect.map(run(Effect.flatMap(Flags, (flags) => flags.get("p", "f"))), (flag) => ({
        stale: flag.stale,
        last: flag.configs.map((c) => c.lastEvaluatedAt)
      }))
      // Young and never evaluated: not stale.
      yield* TestClock.adjust(Duration.times(DAY, 29))
      expect(yield* status).toEqual({ stale: false, last: [null, null] })
      // Thirty days old, never evaluated: stale.
      yield* TestClock.adjust(Duration.sum(DAY, Duration.seconds(1)))
      expect((yield* status).stale).toBe(true)
      // Evaluated in staging: not stale, and staging shows when.
      insights.counter.count("p", "staging", "f", "off")
      yield* TestClock.adjust(Duration.seconds(10))
      yield* insights.flush
      const evaluated = yield* status
      expect(evaluated).toEqual({ stale: false, last: [null, "2026-12-23T14:00:11.000Z"] })
      // Thirty days without evaluation again: stale.
      yield* TestClock.adjust(Duration.times(DAY, 30))
      expect((yield* status).stale).toBe(true)
    }))

  it.scoped("the layer flushes once more when its scope closes (shutdown)", () =>
    Effect.gen(function* () {
      const storage = yield* Layer.build(StorageLayer.memoryStorage)
      const repo = Context.get(storage, InsightsRepository)
      yield* Effect.scoped(
        Effect.gen(function* () {
          const { insights } = yield* withInsights(Layer.succeedContext(storage))
          insights.counter.count("p", "production", "f", "on")
          yield* TestClock.adjust(Duration.seconds(3))
        })
      )
      const rows = yield* repo.series("p", "production", "f", "2026-11-23T14:00:00.000Z", "2026-11-23T14:00:00.000Z")
      expect(rows.map((r) => r.count)).toEqual([1])
    }))
})
