import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { saturatingAdd } from "../../src/domain/insights/ReportBounds.js"
import { type HourlyCount, InsightsRepository, type LastEvaluated } from "../../src/ports/InsightsRepository.js"
import { MemoryDb } from "./MemoryDb.js"

/** Insights in two MemoryDb cells, written in one transaction of the shared database. */

const bucketId = (r: { projectId: string; environmentKey: string; flagKey: string; hour: string; variationKey: string }) =>
  [r.projectId, r.environmentKey, r.flagKey, r.hour, r.variationKey].join("\u0000")
const flagId = (r: { projectId: string; environmentKey: string; flagKey: string }) => [r.projectId, r.environmentKey, r.flagKey].join("\u0000")

export const layer = Layer.effect(
  InsightsRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const counts = db.makeRef<ReadonlyMap<string, HourlyCount>>("insights", new Map())
    const last = db.makeRef<ReadonlyMap<string, LastEvaluated>>("flagEvaluations", new Map())
    return InsightsRepository.of({
      add: (rows, lastEvaluated) =>
        db.withTransaction(
          Effect.zipRight(
            counts.update((map) => {
              const next = new Map(map)
              for (const row of rows) {
                const id = bucketId(row)
                next.set(id, { ...row, count: saturatingAdd(next.get(id)?.count ?? 0, row.count) })
              }
              return next
            }),
            last.update((map) => {
              const next = new Map(map)
              for (const row of lastEvaluated) {
                const id = flagId(row)
                const stored = next.get(id)
                if (stored === undefined || stored.at < row.at) next.set(id, { ...row })
              }
              return next
            })
          )
        ),
      series: (projectId, environmentKey, flagKey, fromHour, toHour) =>
        Effect.map(counts.get, (map) =>
          [...map.values()]
            .filter((r) => r.projectId === projectId && r.environmentKey === environmentKey && r.flagKey === flagKey && r.hour >= fromHour && r.hour <= toHour)
            .sort((a, b) => (a.hour === b.hour ? (a.variationKey < b.variationKey ? -1 : 1) : a.hour < b.hour ? -1 : 1))
        ),
      prune: (beforeHour, limit) =>
        db.withTransaction(
          counts.modify((map) => {
            const old = [...map.values()].filter((r) => r.hour < beforeHour).sort((a, b) => (a.hour < b.hour ? -1 : a.hour > b.hour ? 1 : 0)).slice(0, Math.max(1, limit))
            const next = new Map(map)
            for (const r of old) next.delete(bucketId(r))
            return [old.length, next]
          })
        ),
      lastEvaluated: (projectId) =>
        Effect.map(last.get, (map) =>
          [...map.values()]
            .filter((r) => r.projectId === projectId)
            .sort((a, b) => (a.flagKey === b.flagKey ? (a.environmentKey < b.environmentKey ? -1 : 1) : a.flagKey < b.flagKey ? -1 : 1))
        )
    })
  })
)
