import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { Principal } from "../../src/domain/auth/ApiKey.js"
import type { Exposure } from "../../src/domain/experiments/Exposure.js"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { Experiments } from "../../src/services/experiments/Experiments.js"
import { KeyHourItems } from "../../src/domain/experiments/Exposure.js"
import * as ExposuresService from "../../src/services/experiments/Exposures.js"
import { Exposures } from "../../src/services/experiments/Exposures.js"
import { IngestBudget } from "../../src/services/experiments/IngestBudget.js"
import * as TrackService from "../../src/services/experiments/Track.js"
import { Ingestion } from "../../src/services/experiments/Ingestion.js"
import { type Contract, failureTag } from "./Backend.js"
import { givenRollout, input } from "./Experiments.contract.js"

/**
 * Exposures into per-unit rows, on every backend: the earliest exposure of a unit wins whatever
 * the order of arrival, distinct variations are counted once, a resent batch counts once (also
 * when sent twice at once, in one round of the group commit), and the use case keeps only a
 * running experiment's flag and rule from its start on. The key's hourly budget is charged only
 * for what was written: not for a resent batch, nor for a request that failed.
 */

const at = (ms: number) => new Date(ms).toISOString()

export const exposureContract: Contract = (it) => {
  it.effect("the repository keeps each unit's earliest exposure and counts distinct variations; a batch counts once", () =>
    Effect.gen(function* () {
      const repo = yield* ExperimentUnitRepository
      const ingestion = yield* Ingestion
      const experimentId = `e-${Math.random().toString(36).slice(2)}`
      const t = Date.parse("2026-12-01T10:00:00.000Z")
      const batch = { keyId: "k1", route: "exposures" as const, batchId: `b-${experimentId}`, receivedAt: at(t) }
      expect(yield* ingestion.commit({
        batch,
        exposures: [
          { experimentId, unit: "u2", variationKey: "on", at: t + 5000 },
          { experimentId, unit: "u1", variationKey: "off", at: t + 1000 },
          { experimentId, unit: "u1", variationKey: "off", at: t + 2000 }
        ]
      })).toBe(true)
      // Resent: acknowledged, nothing changes.
      expect(yield* ingestion.commit({ batch, exposures: [{ experimentId, unit: "u1", variationKey: "on", at: t }] })).toBe(false)
      // Arriving later but earlier in time: u2's first exposure moves back, with its variation; u1 sees a second variation.
      yield* ingestion.commit({
        exposures: [
          { experimentId, unit: "u2", variationKey: "off", at: t + 3000 },
          { experimentId, unit: "u1", variationKey: "on", at: t + 9000 },
          { experimentId, unit: "u1", variationKey: "on", at: t + 9500 }
        ]
      })
      yield* ingestion.commit({ exposures: [{ experimentId, unit: "u1", variationKey: "off", at: t + 10_000 }] })
      expect(yield* repo.units(experimentId)).toEqual([
        { experimentId, unit: "u1", firstExposureAt: at(t + 1000), variationKey: "off", variationsSeen: 2 },
        { experimentId, unit: "u2", firstExposureAt: at(t + 3000), variationKey: "off", variationsSeen: 2 }
      ])
      expect(yield* repo.units("other")).toEqual([])
      // Both units saw two variations: the results count them apart and leave them out.
      expect(yield* repo.exposureCounts(experimentId)).toEqual({ perVariation: [], inSeveralVariations: 2 })
      yield* ingestion.commit({
        exposures: [
          { experimentId, unit: "u3", variationKey: "on", at: t },
          { experimentId, unit: "u4", variationKey: "on", at: t },
          { experimentId, unit: "u5", variationKey: "off", at: t },
          { experimentId: `${experimentId}-other`, unit: "u6", variationKey: "off", at: t }
        ]
      })
      expect(yield* repo.exposureCounts(experimentId)).toEqual({
        perVariation: [{ variationKey: "off", units: 1 }, { variationKey: "on", units: 2 }],
        inSeveralVariations: 2
      })
      // Forgotten batches count again.
      expect(yield* repo.pruneBatches(at(t + 1))).toBeGreaterThanOrEqual(1)
      expect(yield* ingestion.commit({ batch, exposures: [] })).toBe(true)
    }))

  it.effect("concurrent writes share rounds: each counted once, a batch sent twice at once written once, the server's own items too", () =>
    Effect.gen(function* () {
      const repo = yield* ExperimentUnitRepository
      const ingestion = yield* Ingestion
      const experimentId = `e-${Math.random().toString(36).slice(2)}`
      const t = Date.now() - 60_000
      const batch = (i: number) => ({ keyId: "k-concurrent", route: "exposures" as const, batchId: `${experimentId}-${i % 50}`, receivedAt: at(t) })
      // 100 requests of 20 units each, every batch id sent twice, and the server's own exposures beside them.
      const requests = Array.from({ length: 100 }, (_, i) =>
        ingestion.commit({
          batch: batch(i),
          exposures: Array.from({ length: 20 }, (_, j) => ({ experimentId, unit: `u${i % 50}-${j}`, variationKey: i < 50 ? "on" : "off", at: t + i }))
        }))
      for (let i = 0; i < 30; i++) expect(ingestion.offer({ experimentId, unit: `server-${i}`, variationKey: "on", at: t })).toBe(true)
      const fresh = yield* Effect.all(requests, { concurrency: "unbounded" })
      yield* ingestion.flush
      // Each batch id is acknowledged as new exactly once; only its first sender's items are kept.
      expect(fresh.filter((f) => f).length).toBe(50)
      const rows = yield* repo.units(experimentId)
      expect(rows.length).toBe(50 * 20 + 30)
      expect(rows.every((row) => row.variationsSeen === 1)).toBe(true)
      expect(ingestion.queued()).toBe(0)
    }))

  it.effect("the use case keeps only a running experiment's rule from its start; the rest is dropped", () =>
    Effect.gen(function* () {
      const projectId = yield* givenRollout
      const experiments = yield* Experiments
      const exposures = yield* Exposures
      const principal: Principal = { _tag: "ProjectServer", keyId: `k-${projectId}`, projectId, environment: null }
      yield* experiments.create(projectId, input())
      let now = Date.now()
      const item = (unit: string, overrides: Partial<Exposure> = {}): Exposure =>
        ({ flagKey: "flag", variationKey: "on", ruleId: "half", unit, timestamp: at(now), ...overrides })

      // A draft keeps nothing.
      expect(yield* exposures.record(principal, { environment: "production", exposures: [item("u1")] })).toEqual({ accepted: 0, dropped: 1, duplicate: false })
      const started = yield* experiments.start(projectId, "exp")
      now = Date.parse(started.startedAt!) + 1
      const before = at(Date.parse(started.startedAt!) - 60_000)
      const answer = yield* exposures.record(principal, {
        environment: "production",
        batchId: "first",
        exposures: [item("u1"), item("u2", { variationKey: "off" }), item("u3", { ruleId: "beta" }), item("u4", { flagKey: "other" }), item("u5", { timestamp: before })]
      })
      expect(answer).toEqual({ accepted: 2, dropped: 3, duplicate: false })
      expect(yield* exposures.record(principal, { environment: "production", batchId: "first", exposures: [item("u9")] })).toMatchObject({ duplicate: true })
      expect(yield* exposures.record(principal, { environment: "staging", exposures: [item("u7")] })).toEqual({ accepted: 0, dropped: 1, duplicate: false })
      const units = yield* (yield* ExperimentUnitRepository).units(started.id)
      expect(units.map((u) => [u.unit, u.variationKey, u.variationsSeen])).toEqual([["u1", "on", 1], ["u2", "off", 1]])

      // Out of bounds: 400 naming the item, and nothing kept.
      const old = yield* Effect.flip(exposures.record(principal, { environment: "production", exposures: [item("u8"), item("u8", { timestamp: at(now - 25 * 3_600_000) })] }))
      expect(old).toMatchObject({ _tag: "InvalidRequest", details: [{ path: "exposures[1].timestamp", message: "must be within the last 24 hours" }] })
      const ahead = yield* Effect.flip(exposures.record(principal, { environment: "production", exposures: [item("u8", { timestamp: at(now + 6 * 60_000) })] }))
      expect(ahead).toMatchObject({ details: [{ path: "exposures[0].timestamp", message: "must not be more than 300 seconds ahead of the server's clock" }] })
      expect((yield* (yield* ExperimentUnitRepository).units(started.id)).map((u) => u.unit)).toEqual(["u1", "u2"])
      // Another project's key, an unknown environment.
      expect(yield* failureTag(exposures.record({ ...principal, projectId: "elsewhere" }, { environment: "production", exposures: [item("u1")] }))).toBe("ResourceNotFound")
      expect(yield* failureTag(exposures.record(principal, { environment: "ghost", exposures: [item("u1")] }))).toBe("ResourceNotFound")

      // Deleting the experiment deletes its units.
      yield* experiments.stop(projectId, "exp", {})
      yield* experiments.remove(projectId, "exp")
      expect(yield* (yield* ExperimentUnitRepository).units(started.id)).toEqual([])
    }))

  it.effect("the hourly budget is charged for what was written: a resent batch and a failed request give theirs back", () =>
    Effect.gen(function* () {
      const projectId = yield* givenRollout
      yield* (yield* Experiments).create(projectId, input())
      yield* (yield* Experiments).start(projectId, "exp")
      // Both routes over one budget of 10 items an hour.
      const [exposures, track] = yield* Effect.all([ExposuresService.make, TrackService.make]).pipe(Effect.provideService(IngestBudget, new KeyHourItems(10)))
      const principal: Principal = { _tag: "ProjectServer", keyId: `k-${projectId}`, projectId, environment: null }
      const item = (unit: string): Exposure => ({ flagKey: "flag", variationKey: "on", ruleId: "half", unit, timestamp: at(Date.now()) })
      const four = { environment: "production", batchId: "four", exposures: ["u1", "u2", "u3", "u4"].map(item) }
      expect(yield* exposures.record(principal, four)).toEqual({ accepted: 4, dropped: 0, duplicate: false })
      // Resent twice: acknowledged, and charged nothing (else the second resend would pass the budget).
      expect(yield* exposures.record(principal, four)).toMatchObject({ duplicate: true })
      expect(yield* exposures.record(principal, four)).toMatchObject({ duplicate: true })
      // Failed requests (an unknown environment, a project the key cannot name) charge nothing either.
      expect(yield* failureTag(track.record(principal, { environment: "ghost", events: [{ event: "purchase", unit: "u1" }] }))).toBe("ResourceNotFound")
      expect(yield* failureTag(exposures.record({ ...principal, projectId: "elsewhere" }, { environment: "production", exposures: [item("u7")] }))).toBe("ResourceNotFound")
      // So 6 items are left, for either route, and then none.
      expect(yield* track.record(principal, { environment: "production", events: [1, 2, 3, 4, 5].map((i) => ({ event: "purchase", unit: `u${i}` })) })).toMatchObject({ accepted: 5 })
      expect(yield* exposures.record(principal, { environment: "production", exposures: [item("u7")] })).toMatchObject({ accepted: 1 })
      expect(yield* failureTag(track.record(principal, { environment: "production", events: [{ event: "purchase", unit: "u1" }] }))).toBe("RateLimited")
      // The 429 names the budget that was hit, not the default limit.
      const refused = yield* Effect.flip(exposures.record(principal, { environment: "production", exposures: [item("u8")] }))
      expect(refused.message).toBe("This key sent more than 10 items this hour; send again after the hour")
    }))

  it.effect("a round of 20,000 new units (the most a round holds) is written in one transaction", () =>
    Effect.gen(function* () {
      const repo = yield* ExperimentUnitRepository
      const ingestion = yield* Ingestion
      const experimentId = `e-${Math.random().toString(36).slice(2)}`
      const t = Date.now() - 60_000
      const exposures = Array.from({ length: 20_000 }, (_, i) => ({ experimentId, unit: `u${i}`, variationKey: i % 2 === 0 ? "on" : "off", at: t }))
      expect(yield* ingestion.commit({ exposures })).toBe(true)
      expect(yield* repo.exposureCounts(experimentId)).toEqual({ perVariation: [{ variationKey: "off", units: 10_000 }, { variationKey: "on", units: 10_000 }], inSeveralVariations: 0 })
    }))
}
