/**
 * Evaluation insights as a use case. The evaluation paths count into `counter` (in memory); SDKs
 * report their own counts through `report`, within the bounds of `ReportBounds.ts`. A fiber
 * flushes the tally at most every 10 s, and the layer's finalizer flushes once more at shutdown,
 * so a crash loses at most the last 10 s. A flush is one `InsightsRepository.add` (one
 * transaction that only adds); when it fails, each project's counts are written on their own, so
 * one project's rows cannot hold back the others'. Counts not written wait for the next flush.
 *
 * It also answers the series endpoint, and deletes hourly counts older than
 * `FLAGPORT_INSIGHTS_RETENTION_DAYS`. (A flag's last evaluations and stale status are part of the
 * flag as the Flags use case answers it: FlagUsage.ts.)
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ConfigError } from "effect/ConfigError"
import { formatTimestamp } from "../../domain/definitions/Ids.js"
import type { Principal } from "../../domain/auth/ApiKey.js"
import * as Policy from "../../domain/auth/Policy.js"
import { type Forbidden, InvalidRequest, type ResourceNotFound, ServiceUnavailable } from "../../domain/Errors.js"
import { environmentNotFound, flagNotFound } from "../../domain/NotFound.js"
import { EvaluationCounter, type PendingCount } from "../../domain/insights/EvaluationCounter.js"
import { KeyHourBudget, reportProblems, reportTotal, saturatingAdd } from "../../domain/insights/ReportBounds.js"
import {
  hourOf,
  hourStart,
  hoursBetween,
  type InsightsQuery,
  type InsightsReceipt,
  type InsightsReport,
  type InsightsSeries,
  MAX_SERIES_HOURS
} from "../../domain/insights/Insights.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { type HourlyCount, InsightsRepository, type LastEvaluated } from "../../ports/InsightsRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { Snapshots } from "../evaluation/Snapshots.js"
import { authorize } from "../shared/Authorize.js"
import { requireProject } from "../shared/RequireProject.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"

/** Longest pause between two flushes. */
export const FLUSH_INTERVAL = Duration.seconds(10)

/** Flushes a project's counts may fail while other projects' succeed before they are dropped (logged). */
export const MAX_FLUSH_FAILURES = 3

/** The default of FLAGPORT_INSIGHTS_RETENTION_DAYS. */
export const DEFAULT_RETENTION_DAYS = 90

/** Rows the retention deletes per statement. */
const PRUNE_BATCH = 1000

const HOUR_MS = 3_600_000

export interface InsightsShape {
  /** Where every server-side evaluation is counted: `counter.count(projectId, environment, flagKey, variationKey)`. */
  readonly counter: EvaluationCounter
  /**
   * An SDK's counts, sent with the key `principal`: the project and environment are resolved and
   * checked exactly as for an evaluation (Policy.authorizeEvaluation: a bound key supplies its
   * environment; 400/403 as there). 400 for a window or counts out of bounds (`ReportBounds.ts`),
   * 404 for an unknown project or environment, 503 while the pending counts are full. Entries
   * naming a flag or variation the environment does not have are ignored (an SDK may report a flag
   * deleted meanwhile). A refused report counts nothing.
   */
  readonly report: (
    principal: Principal,
    report: InsightsReport
  ) => Effect.Effect<InsightsReceipt, InvalidRequest | ResourceNotFound | Forbidden | ServiceUnavailable | StorageError>
  /** Writes what was counted since the last flush (the periodic fiber and shutdown call it). */
  readonly flush: Effect.Effect<void, StorageError>
  /** Deletes the hourly counts older than the retention; answers how many went. */
  readonly prune: Effect.Effect<number, StorageError>
  /**
   * Hourly counts per variation of one flag in one environment (`read` in the project; a key bound
   * to another environment 403); 400 for a bad window, 404s.
   */
  readonly series: (
    projectId: string,
    flagKey: string,
    query: InsightsQuery
  ) => Effect.Effect<InsightsSeries, InvalidRequest | ResourceNotFound | Forbidden | StorageError>
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
    counts.set(id, { projectId: p.projectId, environmentKey: p.environmentKey, flagKey: p.flagKey, variationKey: p.variationKey, hour, count: saturatingAdd(seen?.count ?? 0, p.count) })
    const at = p.evaluatedAt ?? nowText
    const flagId = [p.projectId, p.environmentKey, p.flagKey].join("\u0000")
    const previous = last.get(flagId)
    if (previous === undefined || previous.at < at) {
      last.set(flagId, { projectId: p.projectId, environmentKey: p.environmentKey, flagKey: p.flagKey, at })
    }
  }
  return { counts: [...counts.values()], last: [...last.values()] }
}

const groupBy = (pending: ReadonlyArray<PendingCount>, id: (p: PendingCount) => string): ReadonlyArray<ReadonlyArray<PendingCount>> => {
  const out = new Map<string, Array<PendingCount>>()
  for (const p of pending) {
    const key = id(p)
    const list = out.get(key)
    if (list === undefined) out.set(key, [p])
    else list.push(p)
  }
  return [...out.values()]
}

/** The parts a failed flush retries one by one: each project's counts, or with one project each flag's. */
const partsOf = (pending: ReadonlyArray<PendingCount>): ReadonlyArray<ReadonlyArray<PendingCount>> => {
  const projects = groupBy(pending, (p) => p.projectId)
  return projects.length > 1 ? projects : groupBy(pending, (p) => `${p.environmentKey}\u0000${p.flagKey}`)
}

/** FLAGPORT_INSIGHTS_RETENTION_DAYS as the service reads it when it is built (default 90). */
export class RetentionDays extends Context.Reference<RetentionDays>()("@flagport/services/InsightsRetentionDays", {
  defaultValue: (): number => DEFAULT_RETENTION_DAYS
}) {}

export const make = Effect.gen(function* () {
  const retentionDays = yield* RetentionDays
  const repository = yield* InsightsRepository
  const snapshots = yield* Snapshots
  const flagsRepo = yield* FlagRepository
  const projects = yield* ProjectRepository
  const environments = yield* EnvironmentRepository
  const counter = new EvaluationCounter()
  const budget = new KeyHourBudget()

  const write = (pending: ReadonlyArray<PendingCount>, now: number) => {
    const { counts, last } = rowsOf(pending, now)
    return Effect.either(repository.add(counts, last))
  }

  /**
   * Puts back what was not written, with its hour and instant fixed (so a retried live count
   * still lands in the hour it was counted). `blamed`: the write failed while others succeeded,
   * so these rows may be what fails; after `MAX_FLUSH_FAILURES` such flushes they are dropped.
   */
  const putBack = (pending: ReadonlyArray<PendingCount>, now: number, blamed: boolean) =>
    Effect.gen(function* () {
      const hour = hourOf(now)
      const at = formatTimestamp(now)
      const kept: Array<PendingCount> = []
      let dropped = 0
      for (const p of pending) {
        const failures = (p.failures ?? 0) + (blamed ? 1 : 0)
        if (failures >= MAX_FLUSH_FAILURES) dropped++
        else kept.push({ ...p, hour: p.hour ?? hour, evaluatedAt: p.evaluatedAt ?? at, ...(failures > 0 ? { failures } : {}) })
      }
      counter.restore(kept)
      if (dropped > 0) {
        yield* Effect.logWarning(
          `Dropped ${dropped} evaluation counts of project '${pending[0]!.projectId}' that failed to be written ${MAX_FLUSH_FAILURES} times while others were written`
        )
      }
    })

  const flush = Effect.gen(function* () {
    if (counter.isEmpty) return
    const pending = counter.drain()
    const now = yield* Clock.currentTimeMillis
    const whole = yield* write(pending, now)
    if (Either.isRight(whole)) return
    const parts = partsOf(pending)
    // One transaction failed: each part on its own, so one project's (one flag's) rows cannot block the rest.
    const failed: Array<ReadonlyArray<PendingCount>> = []
    if (parts.length === 1) failed.push(pending)
    else for (const part of parts) if (Either.isLeft(yield* write(part, now))) failed.push(part)
    // Every part failed: the database, not a row. Nothing is blamed; everything waits.
    const blamed = failed.length < parts.length
    for (const part of failed) yield* putBack(part, now, blamed)
    if (failed.length > 0) return yield* Effect.fail(whole.left)
  }).pipe(Effect.withSpan("Insights.flush"))

  const prune = Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const before = hourOf(now - retentionDays * 24 * HOUR_MS)
    let total = 0
    for (;;) {
      const deleted = yield* repository.prune(before, PRUNE_BATCH)
      total += deleted
      if (deleted < PRUNE_BATCH) return total
      yield* Effect.yieldNow()
    }
  }).pipe(Effect.withSpan("Insights.prune"))

  const report = Effect.fn("Insights.report")(function* (principal: Principal, input: InsightsReport) {
    const allowed = Policy.authorizeEvaluation(principal, input.projectId, input.environment)
    if (Either.isLeft(allowed)) return yield* allowed.left
    const scope = { ...allowed.right, keyId: principal.keyId }
    const problems = reportProblems(input, yield* Clock.currentTimeMillis)
    if (problems.length > 0) return yield* new InvalidRequest({ message: "The request is invalid.", details: problems })
    const { snapshot } = yield* snapshots.snapshot(scope.projectId, scope.environment)
    const variations = new Map(snapshot.flags.map((flag) => [flag.key, new Set(flag.variations.map((v) => v.key))]))
    const known = input.counts.filter((c) => variations.get(c.flagKey)?.has(c.variationKey) === true)
    // An SDK's clock may run ahead (a little, see ReportBounds): its counts never land in a future hour.
    const now = yield* Clock.currentTimeMillis
    const to = Math.min(Date.parse(input.to), now)
    // Taken and added with no pause between them, so concurrent reports cannot both pass the budget.
    const hour = hourStart(to)
    const total = reportTotal(known)
    const over = budget.take(scope.keyId, hour, total, now)
    if (over !== undefined) return yield* new InvalidRequest({ message: "The request is invalid.", details: [over] })
    if (!counter.add(scope.projectId, scope.environment, hourOf(to), formatTimestamp(to), known)) {
      budget.giveBack(scope.keyId, hour, total)
      return yield* new ServiceUnavailable({ message: "Too many evaluation counts are waiting to be written; send them again later." })
    }
    return { accepted: known.length, ignored: input.counts.length - known.length }
  })

  const series = Effect.fn("Insights.series")(function* (projectId: string, flagKey: string, query: InsightsQuery) {
    yield* authorize("Insights.series", projectId, [query.environment])
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

  return Insights.of({ counter, report, flush, prune, series })
})

/**
 * The service with its flushing fiber (every `FLUSH_INTERVAL`), a last flush when the layer's
 * scope closes, and the retention (once at start, then hourly). A failed periodic flush is
 * logged; its counts stay for the next one. A failed retention run is logged and tried next hour.
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
    const pruned = insights.prune.pipe(
      Effect.tap((deleted) => (deleted > 0 ? Effect.logDebug(`insights retention deleted ${deleted} hourly counts`) : Effect.void)),
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.logWarning("Insights retention run failed", Cause.squash(cause))
      )
    )
    yield* Effect.addFinalizer(() => logged)
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(Effect.sleep(FLUSH_INTERVAL), logged)))
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(pruned, Effect.sleep(Duration.hours(1)))))
    return insights
  })
)

/** FLAGPORT_INSIGHTS_RETENTION_DAYS: days hourly counts are kept, a whole number, at least 1 (default 90). */
export const retentionDaysConfig: Config.Config<number> = Config.integer("FLAGPORT_INSIGHTS_RETENTION_DAYS").pipe(
  Config.validate({ message: "Expected a whole number of days, at least 1", validation: (days) => days >= 1 }),
  Config.withDefault(DEFAULT_RETENTION_DAYS)
)

/** The retention from the environment; fails at start on a bad FLAGPORT_INSIGHTS_RETENTION_DAYS. */
export const retentionLayerConfig: Layer.Layer<never, ConfigError> = Layer.unwrapEffect(
  Effect.map(retentionDaysConfig, (days) => Layer.succeed(RetentionDays, days))
)
