/**
 * The in-memory tally of evaluations between two flushes. Every server-side evaluation path calls
 * `count` (or `countResults` for a whole `POST /v1/evaluate`) right after evaluating: a few Map
 * operations, no allocation once a (flag, variation) has been seen, and no way to throw into
 * the caller. SDK reports (`add`) carry their own hour; evaluations counted here take the hour
 * of the flush that drains them (flushes are at most 10 s apart, so at most the last 10 s of an
 * hour can land in the next one).
 */
import type { EvaluationResult } from "../evaluation/EvaluationResult.js"
import { saturatingAdd } from "./ReportBounds.js"

/**
 * Most distinct SDK-reported counts (project, environment, flag, variation, hour) held between two
 * flushes. Server-side counts are bounded by the configuration (flags x variations); reported
 * ones also by the hours a report may name, and by how many flush failures pile up: past this,
 * a report that would add new ones is refused (`add` answers false) until a flush empties the tally.
 */
export const MAX_PENDING_REPORTED = 200_000

/** Counts of one flag by variation key. */
type FlagTally = Map<string, number>

/**
 * Counts of one (project, environment). The evaluator answers with frozen result objects made
 * once per flag outcome of a compiled snapshot, so most evaluations are counted by the identity
 * of their result (one Map operation pair, no string hashing); other results by their keys.
 */
interface ScopeTally {
  /** A mutable cell per result: one Map lookup per count, not a get and a set. */
  readonly byResult: Map<EvaluationResult, { n: number }>
  readonly byKey: Map<string, FlagTally>
}

/** A pending count as the flush writes it. `hour` is undefined for counts taking the flush's hour. */
export interface PendingCount {
  readonly projectId: string
  readonly environmentKey: string
  readonly flagKey: string
  readonly variationKey: string
  readonly hour: string | undefined
  readonly count: number
  /** When an SDK said it evaluated (its report's `to`); undefined: at the flush. */
  readonly evaluatedAt: string | undefined
  /** Flushes that failed to write this count while others succeeded (see `Insights.flush`). */
  readonly failures?: number
}

const SEPARATOR = "\u0000"

export class EvaluationCounter {
  /** Live evaluations by `projectId SEP environment`. */
  private scopes = new Map<string, ScopeTally>()
  /** SDK-reported counts, already bucketed, summed per (project, environment, flag, variation, hour). */
  private reported = new Map<string, PendingCount>()

  private scope(projectId: string, environment: string): ScopeTally {
    const id = projectId + SEPARATOR + environment
    let tally = this.scopes.get(id)
    if (tally === undefined) {
      tally = { byResult: new Map(), byKey: new Map() }
      this.scopes.set(id, tally)
    }
    return tally
  }

  private static bump(scope: ScopeTally, flagKey: string, variationKey: string, n = 1): void {
    let flag = scope.byKey.get(flagKey)
    if (flag === undefined) {
      flag = new Map()
      scope.byKey.set(flagKey, flag)
    }
    flag.set(variationKey, saturatingAdd(flag.get(variationKey) ?? 0, n))
  }

  private static bumpResult(scope: ScopeTally, result: EvaluationResult): void {
    // A result counted before is frozen and served a variation (checked below when it came first): one lookup.
    const cell = scope.byResult.get(result)
    if (cell !== undefined) {
      cell.n++
      return
    }
    if (result.variationKey === null) return
    // Only frozen results are shared; a fresh object per evaluation would grow the map.
    if (!Object.isFrozen(result)) return EvaluationCounter.bump(scope, result.flagKey, result.variationKey)
    scope.byResult.set(result, { n: 1 })
  }

  /** One evaluation of `variationKey` of `flagKey` (a null variation: nothing was served, nothing counted). */
  count(projectId: string, environment: string, flagKey: string, variationKey: string | null): void {
    if (variationKey === null) return
    try {
      EvaluationCounter.bump(this.scope(projectId, environment), flagKey, variationKey)
    } catch {
      // Counting must never fail an evaluation (a Map cannot realistically throw; this keeps the promise).
    }
  }

  /** One evaluation, by its result (the single-flag route). */
  countResult(projectId: string, environment: string, result: EvaluationResult): void {
    try {
      EvaluationCounter.bumpResult(this.scope(projectId, environment), result)
    } catch {
      // As in `count`.
    }
  }

  /**
   * Counts results of one (project, environment), the scope looked up once: for an answer that
   * evaluates every flag (`POST /v1/evaluate`, OFREP's bulk evaluation) and counts as it goes.
   */
  countsIn(projectId: string, environment: string): (result: EvaluationResult) => void {
    const scope = this.scope(projectId, environment)
    return (result) => {
      try {
        EvaluationCounter.bumpResult(scope, result)
      } catch {
        // As in `count`.
      }
    }
  }

  /** One evaluation of each result (the answer of `POST /v1/evaluate`). */
  countResults(projectId: string, environment: string, results: Readonly<Record<string, EvaluationResult>>): void {
    try {
      const scope = this.scope(projectId, environment)
      for (const flagKey in results) {
        const result = results[flagKey]
        if (result !== undefined) EvaluationCounter.bumpResult(scope, result)
      }
    } catch {
      // As in `count`.
    }
  }

  /**
   * Counts an SDK reported for one hour bucket, evaluated up to `evaluatedAt`. False, adding
   * nothing, when they would hold more than `MAX_PENDING_REPORTED` distinct counts.
   */
  add(projectId: string, environment: string, hour: string, evaluatedAt: string, counts: ReadonlyArray<{ readonly flagKey: string; readonly variationKey: string; readonly count: number }>): boolean {
    const ids = counts.map((c) => [projectId, environment, c.flagKey, c.variationKey, hour].join(SEPARATOR))
    const fresh = new Set(ids.filter((id) => !this.reported.has(id))).size
    if (fresh > 0 && this.reported.size + fresh > MAX_PENDING_REPORTED) return false
    counts.forEach((c, i) =>
      this.merge(ids[i]!, { projectId, environmentKey: environment, flagKey: c.flagKey, variationKey: c.variationKey, hour, count: c.count, evaluatedAt })
    )
    return true
  }

  private merge(id: string, p: PendingCount): void {
    const seen = this.reported.get(id)
    if (seen === undefined) return void this.reported.set(id, p)
    const evaluatedAt = seen.evaluatedAt === undefined || (p.evaluatedAt !== undefined && p.evaluatedAt > seen.evaluatedAt) ? p.evaluatedAt : seen.evaluatedAt
    const failures = Math.max(seen.failures ?? 0, p.failures ?? 0)
    this.reported.set(id, { ...seen, count: saturatingAdd(seen.count, p.count), evaluatedAt, ...(failures > 0 ? { failures } : {}) })
  }

  /** Takes everything counted so far, leaving the tally empty (the flush writes it, or `restore`s it on failure). */
  drain(): ReadonlyArray<PendingCount> {
    const scopes = this.scopes
    const out = [...this.reported.values()]
    this.scopes = new Map()
    this.reported = new Map()
    for (const [id, scope] of scopes) {
      const at = id.indexOf(SEPARATOR)
      const projectId = id.slice(0, at)
      const environmentKey = id.slice(at + 1)
      // Results of one flag outcome may come from several snapshots (a reload): fold them by key.
      for (const [result, cell] of scope.byResult) EvaluationCounter.bump(scope, result.flagKey, result.variationKey!, cell.n)
      for (const [flagKey, flag] of scope.byKey) {
        for (const [variationKey, count] of flag) {
          out.push({ projectId, environmentKey, flagKey, variationKey, hour: undefined, count, evaluatedAt: undefined })
        }
      }
    }
    return out
  }

  /**
   * Puts back counts a failed flush could not write, so the next flush writes them (one without
   * an `hour` takes the next flush's). Never refused: nothing counted is lost here.
   */
  restore(pending: ReadonlyArray<PendingCount>): void {
    for (const p of pending) this.merge([p.projectId, p.environmentKey, p.flagKey, p.variationKey, p.hour ?? ""].join(SEPARATOR), p)
  }

  /** Whether nothing waits to be flushed. */
  get isEmpty(): boolean {
    return this.scopes.size === 0 && this.reported.size === 0
  }
}
