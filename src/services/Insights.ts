/**
 * Evaluation insights as a use case. The evaluation paths count into `counter` (in memory); SDKs
 * report their own counts through `report`. A fiber flushes the tally at most every 10 s, and the
 * layer's finalizer flushes once more at shutdown, so a crash loses at most the last 10 s. A flush
 * is one `InsightsRepository.add` (one transaction that only adds): a failed one writes nothing
 * and its counts wait for the next.
 *
 * It also answers the series endpoint. (A flag's last evaluations and stale status are part of the
 * flag as the Flags use case answers it: FlagUsage.ts.)
 */
import { Cause, Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { formatTimestamp } from "../domain/definitions/Ids.js"
import { InvalidRequest, type ResourceNotFound } from "../domain/Errors.js"
import { environmentNotFound, flagNotFound } from "../domain/NotFound.js"
import { EvaluationCounter } from "../domain/insights/EvaluationCounter.js"
import {
  hourOf,
  hourStart,
  hoursBetween,
  type InsightsQuery,
  type InsightsReceipt,
  type InsightsReport,
  type InsightsSeries,
  MAX_SERIES_HOURS
} from "../domain/insights/Insights.js"
import { FlagRepository } from "../ports/FlagRepository.js"
import { type HourlyCount, InsightsRepository, type LastEvaluated } from "../ports/InsightsRepository.js"
import type { StorageError } from "../ports/StorageError.js"
import { Snapshots } from "./Snapshots.js"
import { requireProject } from "./RequireProject.js"
import { ProjectRepository } from "../ports/ProjectRepository.js"
import { EnvironmentRepository } from "../ports/EnvironmentRepository.js"

/** Longest pause between two flushes. */
export const FLUSH_INTERVAL = Duration.seconds(10)

const HOUR_MS = 3_600_000

export interface InsightsShape {
  /** Where every server-side evaluation is counted: `counter.count(projectId, environment, flagKey, variationKey)`. */
  readonly counter: EvaluationCounter
  /**
   * An SDK's counts for one allowed scope: entries naming a flag or variation the environment
   * does not have are ignored (an SDK may report a flag deleted meanwhile); 404 for an unknown
   * project or environment.
   */
  readonly report: (
    scope: { readonly projectId: string; readonly environment: string },
    report: InsightsReport
  ) => Effect.Effect<InsightsReceipt, InvalidRequest | ResourceNotFound | StorageError>
  /** Writes what was counted since the last flush (the periodic fiber and shutdown call it). */
  readonly flush: Effect.Effect<void, StorageError>
  /** Hourly counts per variation of one flag in one environment; 400 for a bad window, 404s. */
  readonly series: (
    projectId: string,
    flagKey: string,
    query: InsightsQuery
  ) => Effect.Effect<InsightsSeries, InvalidRequest | ResourceNotFound | StorageError>
}

export class Insights extends Context.Tag("@flagport/services/Insights")<Insights, InsightsShape>() {}

const windowProblem = (path: string, message: string) =>
  new InvalidRequest({ message: "The request is invalid.", details: [{ path, message }] })

/** The pending counts as rows: live counts take the flush's hour, reported ones keep theirs; repeats are summed. */
const rowsOf = (
  pending: ReturnType<EvaluationCounter["drain"]>,
  now: number
): { readonly counts: ReadonlyArray<HourlyCount>; readonly last: ReadonlyArray<LastEvaluated> } => {
  const nowHour = hourOf(now)
  const nowText = formatTimestamp(now)
  const counts = new Map<string, HourlyCount>()
  const last = new Map<string, LastEvaluated>()
  for (const p of pending) {
    const hour = p.hour ?? nowHour
    const id = [p.projectId, p.environmentKey, p.flagKey, p.variationKey, hour].join("\u0000")
    const seen = counts.get(id)
    counts.set(id, { ...p, hour, count: (seen?.count ?? 0) + p.count })
    const at = p.evaluatedAt ?? nowText
    const flagId = [p.projectId, p.environmentKey, p.flagKey].join("\u0000")
    const previous = last.get(flagId)
    if (previous === undefined || previous.at < at) {
      last.set(flagId, { projectId: p.projectId, environmentKey: p.environmentKey, flagKey: p.flagKey, at })
    }
  }
  return { counts: [...counts.values()], last: [...last.values()] }
}

export const make = Effect.gen(function* () {
  const repository = yield* InsightsRepository
  const snapshots = yield* Snapshots
  const flagsRepo = yield* FlagRepository
  const projects = yield* ProjectRepository
  const environments = yield* EnvironmentRepository
  const counter = new EvaluationCounter()

  const flush = Effect.gen(function* () {
    if (counter.isEmpty) return
    const pending = counter.drain()
    const now = yield* Clock.currentTimeMillis
    const { counts, last } = rowsOf(pending, now)
    yield* repository.add(counts, last).pipe(Effect.tapError(() => Effect.sync(() => counter.restore(pending))))
  }).pipe(Effect.withSpan("Insights.flush"))

  const report = Effect.fn("Insights.report")(function* (
    scope: { readonly projectId: string; readonly environment: string },
    input: InsightsReport
  ) {
    if (Date.parse(input.from) > Date.parse(input.to)) return yield* windowProblem("from", "must not be after to")
    const { snapshot } = yield* snapshots.snapshot(scope.projectId, scope.environment)
    const variations = new Map(snapshot.flags.map((flag) => [flag.key, new Set(flag.variations.map((v) => v.key))]))
    const known = input.counts.filter((c) => variations.get(c.flagKey)?.has(c.variationKey) === true)
    // An SDK's clock may run ahead: its counts never land in a future hour.
    const now = yield* Clock.currentTimeMillis
    const to = Math.min(Date.parse(input.to), now)
    counter.add(scope.projectId, scope.environment, hourOf(to), formatTimestamp(to), known)
    return { accepted: known.length, ignored: input.counts.length - known.length }
  })

  const series = Effect.fn("Insights.series")(function* (projectId: string, flagKey: string, query: InsightsQuery) {
    // The window first: a bad one is the caller's mistake whatever exists.
    const now = yield* Clock.currentTimeMillis
    const to = query.to === undefined ? now : Date.parse(query.to)
    // Default: the last 24 hour buckets, the current one included.
    const from = query.from === undefined ? hourStart(to) - 23 * HOUR_MS : Date.parse(query.from)
    if (from > to) return yield* windowProblem("from", "must not be after to")
    // Counted before listing the hours, so a window of centuries costs nothing.
    if ((hourStart(to) - hourStart(from)) / HOUR_MS + 1 > MAX_SERIES_HOURS) {
      return yield* windowProblem("from", `the window may span at most ${MAX_SERIES_HOURS} hours`)
    }
    const hours = hoursBetween(from, to)
    yield* requireProject(projects, projectId)
    if (Option.isNone(yield* environments.get(projectId, query.environment))) {
      return yield* environmentNotFound(projectId, query.environment)
    }
    const flag = yield* flagsRepo.get(projectId, flagKey)
    if (Option.isNone(flag)) return yield* Effect.fail(flagNotFound(projectId, flagKey))
    const rows = yield* repository.series(projectId, query.environment, flagKey, hours[0], hours[hours.length - 1])
    const byVariation = new Map<string, Map<string, number>>()
    for (const row of rows) {
      const perHour = byVariation.get(row.variationKey) ?? new Map<string, number>()
      perHour.set(row.hour, row.count)
      byVariation.set(row.variationKey, perHour)
    }
    // Every current variation, then any variation counted but since removed from the flag.
    const keys = [...flag.value.variations.map((v) => v.key), ...[...byVariation.keys()].filter((k) => !flag.value.variations.some((v) => v.key === k))]
    return {
      flagKey,
      environment: query.environment,
      from: hours[0],
      to: hours[hours.length - 1],
      variations: keys.map((variationKey) => {
        const perHour = byVariation.get(variationKey)
        const points = hours.map((hour) => ({ hour, count: perHour?.get(hour) ?? 0 }))
        return { variationKey, total: points.reduce((sum, p) => sum + p.count, 0), points }
      })
    }
  })

  return Insights.of({ counter, report, flush, series })
})

/**
 * The service with its flushing fiber (every `FLUSH_INTERVAL`) and a last flush when the layer's
 * scope closes. A failed periodic flush is logged; its counts stay for the next one.
 */
export const layer: Layer.Layer<
  Insights,
  never,
  InsightsRepository | Snapshots | ProjectRepository | EnvironmentRepository | FlagRepository
> = Layer.scoped(
  Insights,
  Effect.gen(function* () {
    const insights = yield* make
    const logged = insights.flush.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("Flushing evaluation insights failed; retrying at the next flush", Cause.squash(cause)))
    )
    yield* Effect.addFinalizer(() => logged)
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(Effect.sleep(FLUSH_INTERVAL), logged)))
    return insights
  })
)
