import { expect } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { MAX_COUNT } from "../../src/domain/insights/ReportBounds.js"
import { type HourlyCount, InsightsRepository } from "../../src/ports/InsightsRepository.js"
import { StorageError } from "../../src/ports/StorageError.js"
import { Transactor } from "../../src/ports/Transactor.js"
import { type Contract, freshProjectId } from "./Backend.js"

const H1 = "2026-11-23T13:00:00.000Z"
const H2 = "2026-11-23T14:00:00.000Z"
const H3 = "2026-11-23T15:00:00.000Z"

const count = (projectId: string, flagKey: string, variationKey: string, hour: string, n: number, environmentKey = "production"): HourlyCount => ({
  projectId,
  environmentKey,
  flagKey,
  variationKey,
  hour,
  count: n
})

/** Stored counts only grow; last evaluations only move forward; a write is all or nothing. */
export const insightsContract: Contract = (it) => {
  it.effect("add creates buckets and adds to existing ones; series reads one flag and environment in hour order", () =>
    Effect.gen(function* () {
      const repo = yield* InsightsRepository
      const p = freshProjectId()
      yield* repo.add([count(p, "f", "on", H2, 3), count(p, "f", "off", H1, 1), count(p, "g", "on", H2, 7), count(p, "f", "on", H2, 5, "staging")], [])
      yield* repo.add([count(p, "f", "on", H2, 4), count(p, "f", "on", H3, 2)], [])
      const rows = yield* repo.series(p, "production", "f", H1, H3)
      expect(rows.map((r) => [r.hour, r.variationKey, r.count])).toEqual([
        [H1, "off", 1],
        [H2, "on", 7],
        [H3, "on", 2]
      ])
      expect((yield* repo.series(p, "production", "f", H2, H2)).map((r) => r.count)).toEqual([7])
      expect((yield* repo.series(p, "staging", "f", H1, H3)).map((r) => r.count)).toEqual([5])
      expect(yield* repo.series(freshProjectId(), "production", "f", H1, H3)).toEqual([])
    }))

  it.effect("large counts add up exactly (beyond 32 bits)", () =>
    Effect.gen(function* () {
      const repo = yield* InsightsRepository
      const p = freshProjectId()
      yield* repo.add([count(p, "f", "on", H1, 1_000_000_000)], [])
      yield* repo.add([count(p, "f", "on", H1, 1_000_000_000)], [])
      yield* repo.add([count(p, "f", "on", H1, 1_000_000_000)], [])
      expect((yield* repo.series(p, "production", "f", H1, H1))[0]?.count).toBe(3_000_000_000)
    }))

  it.effect("sums saturate at MAX_COUNT instead of overflowing (BIGINT on PostgreSQL)", () =>
    Effect.gen(function* () {
      const repo = yield* InsightsRepository
      const p = freshProjectId()
      yield* repo.add([count(p, "f", "on", H1, MAX_COUNT - 10)], [])
      yield* repo.add([count(p, "f", "on", H1, 1_000_000_000)], [])
      yield* repo.add([count(p, "f", "on", H1, MAX_COUNT)], [])
      expect((yield* repo.series(p, "production", "f", H1, H1))[0]?.count).toBe(MAX_COUNT)
    }))

  it.effect("prune deletes the oldest hours before the cutoff, in batches, for every project", () =>
    Effect.gen(function* () {
      const repo = yield* InsightsRepository
      const p = freshProjectId()
      const q = freshProjectId()
      yield* repo.add([count(p, "f", "on", H1, 1), count(q, "f", "on", H1, 2), count(p, "f", "on", H2, 3), count(p, "f", "on", H3, 4)], [])
      // Other suites' rows of older hours may be pruned too: count only this test's.
      const mine = Effect.map(Effect.all([repo.series(p, "production", "f", H1, H3), repo.series(q, "production", "f", H1, H3)]), ([a, b]) => [...a, ...b].map((r) => r.count))
      while ((yield* repo.prune(H2, 1)) > 0) {
        // one row per call
      }
      expect(yield* mine).toEqual([3, 4])
      expect(yield* repo.prune(H1, 1000)).toBe(0)
    }))

  it.effect("a batch of many rows is written whole", () =>
    Effect.gen(function* () {
      const repo = yield* InsightsRepository
      const p = freshProjectId()
      const rows = Array.from({ length: 1200 }, (_, i) => count(p, `f${i}`, "on", H1, i + 1))
      yield* repo.add(rows, rows.map((r) => ({ projectId: p, environmentKey: "production", flagKey: r.flagKey, at: "2026-11-23T13:10:00.000Z" })))
      expect((yield* repo.series(p, "production", "f1199", H1, H1))[0]?.count).toBe(1200)
      expect((yield* repo.lastEvaluated(p)).length).toBe(1200)
    }))

  it.effect("lastEvaluated keeps the latest instant per flag and environment, whatever the order of writes", () =>
    Effect.gen(function* () {
      const repo = yield* InsightsRepository
      const p = freshProjectId()
      const at = (flagKey: string, environmentKey: string, instant: string) => ({ projectId: p, environmentKey, flagKey, at: instant })
      yield* repo.add([], [at("f", "production", "2026-11-23T14:00:05.000Z"), at("f", "staging", "2026-11-20T10:00:00.000Z")])
      yield* repo.add([], [at("f", "production", "2026-11-23T13:00:00.000Z"), at("g", "production", "2026-11-23T12:00:00.000Z")])
      yield* repo.add([], [at("f", "staging", "2026-11-21T10:00:00.000Z")])
      expect(yield* repo.lastEvaluated(p)).toEqual([
        at("f", "production", "2026-11-23T14:00:05.000Z"),
        at("f", "staging", "2026-11-21T10:00:00.000Z"),
        at("g", "production", "2026-11-23T12:00:00.000Z")
      ])
      expect(yield* repo.lastEvaluated(freshProjectId())).toEqual([])
    }))

  it.effect("inside a transaction that fails, nothing of an add is kept", () =>
    Effect.gen(function* () {
      const repo = yield* InsightsRepository
      const tx = yield* Transactor
      const p = freshProjectId()
      yield* repo.add([count(p, "f", "on", H1, 2)], [])
      const exit = yield* Effect.exit(
        tx.withTransaction(
          Effect.zipRight(
            repo.add([count(p, "f", "on", H1, 40)], [{ projectId: p, environmentKey: "production", flagKey: "f", at: "2026-11-23T13:30:00.000Z" }]),
            Effect.fail(new StorageError({ message: "boom" }))
          )
        )
      )
      expect(Exit.isFailure(exit)).toBe(true)
      expect((yield* repo.series(p, "production", "f", H1, H1))[0]?.count).toBe(2)
      expect(yield* repo.lastEvaluated(p)).toEqual([])
    }))
}
