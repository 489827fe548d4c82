/**
 * What one SDK report (`POST /v1/insights`) may claim. A report is a claim nobody can check, and
 * a client key is public, so its window must be recent and its counts plausible for that window
 * (the limits are in `Limits.ts`, scope "report"). The per-key-per-hour bound needs memory of
 * earlier reports; the service keeps it (`KeyHourBudget`), the arithmetic is here.
 *
 * Also the saturating sum every count goes through, in memory and in storage: counts stop at
 * `MAX_COUNT` instead of overflowing (PostgreSQL's BIGINT would fail every later write of the row;
 * a JavaScript number would stop being exact).
 */
import type { Problem } from "../Errors.js"
import { limit } from "../Limits.js"
import type { InsightsReport } from "./Insights.js"

/** The largest count kept anywhere: the largest integer a JavaScript number holds exactly. */
export const MAX_COUNT = Number.MAX_SAFE_INTEGER

/** `a + b`, stopping at `MAX_COUNT` (a count already above it, read from storage, stays). */
export const saturatingAdd = (a: number, b: number): number => (a >= MAX_COUNT - b ? Math.max(a, MAX_COUNT) : a + b)

const HOUR_MS = 3_600_000
const fmt = (n: number) => n.toLocaleString("en-US")

/**
 * The problems of a report's window and counts at `now` (epoch ms), every one of them; empty when
 * the report may be counted. Checked before anything is looked up, so a refused report costs
 * nothing and changes nothing.
 */
export const reportProblems = (report: InsightsReport, now: number): ReadonlyArray<Problem> => {
  const problems: Array<Problem> = []
  const from = Date.parse(report.from)
  const to = Date.parse(report.to)
  if (from > to) problems.push({ path: "from", message: "must not be after to" })
  const oldest = now - limit("reportAge") * HOUR_MS
  if (from < oldest) problems.push({ path: "from", message: `must be within the last ${limit("reportAge")} hours` })
  if (to > now + limit("reportClockSkew") * 1000) {
    problems.push({ path: "to", message: `must not be more than ${limit("reportClockSkew")} seconds ahead of the server's clock` })
  }
  if (problems.length > 0) return problems
  // A window shorter than a second counts as one: a report sent right after the last one is fine.
  const seconds = Math.max(1, (to - from) / 1000)
  const perFlag = Math.floor(limit("reportFlagRate") * seconds)
  const byFlag = new Map<string, number>()
  let total = 0
  for (const c of report.counts) {
    byFlag.set(c.flagKey, (byFlag.get(c.flagKey) ?? 0) + c.count)
    total += c.count
  }
  for (const [flagKey, claimed] of byFlag) {
    if (claimed > perFlag) {
      problems.push({
        path: "counts",
        message: `claims ${fmt(claimed)} evaluations of '${flagKey}' in ${fmt(seconds)} s; at most ${fmt(limit("reportFlagRate"))} per second of the window from..to (${fmt(perFlag)})`
      })
    }
  }
  if (total > limit("reportTotal")) {
    problems.push({ path: "counts", message: `must have at most ${fmt(limit("reportTotal"))} evaluations in all (this report has ${fmt(total)})` })
  }
  return problems
}

/** The evaluations a report claims in all. */
export const reportTotal = (counts: ReadonlyArray<{ readonly count: number }>): number => counts.reduce((sum, c) => sum + c.count, 0)

/**
 * What each key has reported per hour (in this process), so one key cannot claim more than
 * `reportKeyHour` evaluations for one hour by sending many reports. Hours older than the report
 * window are forgotten, so the memory is at most (keys reporting) x (hours a report may name).
 */
export class KeyHourBudget {
  private readonly spent = new Map<string, number>()
  private forgottenBefore = 0

  /**
   * Takes `total` from the budget of (`keyId`, `hour`) and answers undefined, or answers the
   * problem (taking nothing) when the hour's budget would be passed.
   */
  take(keyId: string, hour: number, total: number, now: number): Problem | undefined {
    this.forget(now)
    const id = `${keyId}\u0000${hour}`
    const before = this.spent.get(id) ?? 0
    const cap = limit("reportKeyHour")
    if (before + total > cap) {
      return {
        path: "counts",
        message: `this key may report at most ${fmt(cap)} evaluations for the hour of to (${new Date(hour).toISOString()}); ${fmt(before)} are already counted`
      }
    }
    this.spent.set(id, before + total)
    return undefined
  }

  /** Gives back what `take` took (the report was refused after all). */
  giveBack(keyId: string, hour: number, total: number): void {
    const id = `${keyId}\u0000${hour}`
    const left = (this.spent.get(id) ?? 0) - total
    if (left > 0) this.spent.set(id, left)
    else this.spent.delete(id)
  }

  private forget(now: number): void {
    const oldest = Math.floor(now / HOUR_MS) * HOUR_MS - (limit("reportAge") + 1) * HOUR_MS
    // At most once an hour: the map is walked only when an hour has passed.
    if (oldest <= this.forgottenBefore) return
    this.forgottenBefore = oldest
    for (const id of this.spent.keys()) {
      if (Number(id.slice(id.indexOf("\u0000") + 1)) < oldest) this.spent.delete(id)
    }
  }
}
