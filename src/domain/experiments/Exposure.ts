/**
 * Exposures (docs/guide/experiments.md): a unit was served a variation by a rule. The schemas of
 * `POST /v1/exposures`, what each item may claim (`exposureProblems`: checked before anything is
 * looked up, so a refused request costs nothing and changes nothing), and which items a running
 * experiment keeps (`keptExposures`). Limits are in `Limits.ts` (scope "ingest").
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import { Key } from "../definitions/Ids.js"
import { Text } from "../definitions/Text.js"
import type { Problem } from "../Errors.js"
import { Instant } from "../insights/Insights.js"
import { atMost, atMostLength, limit } from "../Limits.js"
import { armOf } from "./Guardrail.js"
import type { MeasuredRule } from "./MeasuredRule.js"

const HOUR_MS = 3_600_000

/** The value a rollout buckets by (the context key by default), as the SDK read it. */
export const Unit = Text.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.maxLength(limit("ingestUnitLength"), { message: () => atMostLength("ingestUnitLength") })
)

/** A retried request's id: the same id from the same key within 24 hours is counted once. */
export const BatchId = Text.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.maxLength(64, { message: () => "must be at most 64 characters" })
)

export const Exposure = Schema.Struct({
  flagKey: Key,
  variationKey: Key,
  ruleId: Text.pipe(Schema.maxLength(128, { message: () => "must be at most 128 characters" })),
  unit: Unit,
  timestamp: Instant
}).annotations(documentName("Exposure"))
export type Exposure = typeof Exposure.Type

/** Body of `POST /v1/exposures`. `projectId` only with a global server key; `environment` unless the key is bound to one. */
export const ExposureBatch = Schema.Struct({
  projectId: Schema.optional(Schema.String),
  environment: Schema.optional(Key),
  batchId: Schema.optional(BatchId),
  exposures: Schema.Array(Exposure).pipe(Schema.maxItems(limit("ingestItems"), { message: () => atMost("ingestItems") }))
}).annotations(documentName("ExposureBatch"))
export type ExposureBatch = typeof ExposureBatch.Type

/**
 * Answer of `POST /v1/exposures` (202): items kept, and items dropped because no running
 * experiment measures their flag's rule (or they precede its start). A batch id seen before
 * answers `duplicate: true` and counts nothing again.
 */
export const IngestReceipt = Schema.Struct({
  accepted: Schema.Number,
  dropped: Schema.Number,
  duplicate: Schema.Boolean
}).annotations(documentName("IngestReceipt"))
export type IngestReceipt = typeof IngestReceipt.Type

/**
 * Every item of `list` whose timestamp is older than `ingestAge` hours or more than
 * `ingestClockSkew` seconds ahead of `now` (an item without one is stamped `now` by the server).
 */
export const timestampProblems = (list: string, timestamps: ReadonlyArray<string | undefined>, now: number): ReadonlyArray<Problem> => {
  const oldest = now - limit("ingestAge") * HOUR_MS
  const newest = now + limit("ingestClockSkew") * 1000
  return timestamps.flatMap((timestamp, i) => {
    if (timestamp === undefined) return []
    const at = Date.parse(timestamp)
    if (at < oldest) return [{ path: `${list}[${i}].timestamp`, message: `must be within the last ${limit("ingestAge")} hours` }]
    if (at > newest) {
      return [{ path: `${list}[${i}].timestamp`, message: `must not be more than ${limit("ingestClockSkew")} seconds ahead of the server's clock` }]
    }
    return []
  })
}

/** Every exposure whose timestamp is out of bounds (`timestampProblems`). */
export const exposureProblems = (exposures: ReadonlyArray<Exposure>, now: number): ReadonlyArray<Problem> =>
  timestampProblems("exposures", exposures.map((exposure) => exposure.timestamp), now)

/** What a kept exposure updates: its experiment's row for the unit. `at` is epoch milliseconds. */
export interface UnitExposure {
  readonly experimentId: string
  readonly unit: string
  readonly variationKey: string
  readonly at: number
}

/**
 * A start instant in epoch ms: the last one parsed is remembered (every exposure of a request, or
 * of the server's evaluations, asks for the same few), so the hot paths do not parse it per item.
 */
let lastStartedAt = ""
let lastStartedAtMs = Number.NaN
const startedAtMs = (startedAt: string): number => {
  if (startedAt !== lastStartedAt) {
    lastStartedAtMs = Date.parse(startedAt)
    lastStartedAt = startedAt
  }
  return lastStartedAtMs
}

/** What a unit served `variationKey` at `at` (epoch ms) writes for `measured`, or null before its start. */
export const unitExposureOf = (measured: MeasuredRule, unit: string, variationKey: string, at: number): UnitExposure | null => {
  if (measured.startedAt === null || at < startedAtMs(measured.startedAt)) return null
  const stored = measured.rampedVariationKey === undefined ? variationKey : armOf(measured.rampedVariationKey, variationKey)
  return { experimentId: measured.id, unit, variationKey: stored, at }
}

/**
 * The exposures the rules measured in one environment keep (running experiments' and release
 * plans', `MeasuredRule.ts`): those of a measured flag and rule, at or after its start, once for
 * each that measures it. The others are dropped (counted, never stored).
 */
export const keptExposures = (exposures: ReadonlyArray<Exposure>, running: ReadonlyArray<MeasuredRule>): ReadonlyArray<UnitExposure> => {
  if (running.length === 0) return []
  const byRule = new Map<string, Array<MeasuredRule>>()
  for (const measured of running) {
    const id = `${measured.flagKey}\u0000${measured.ruleId}`
    const same = byRule.get(id)
    if (same === undefined) byRule.set(id, [measured])
    else same.push(measured)
  }
  // Plain loops (no array per item): this runs for every item of every request.
  const kept: Array<UnitExposure> = []
  for (const exposure of exposures) {
    const measuring = byRule.get(`${exposure.flagKey}\u0000${exposure.ruleId}`)
    if (measuring === undefined) continue
    const at = Date.parse(exposure.timestamp)
    for (const measured of measuring) {
      const one = unitExposureOf(measured, exposure.unit, exposure.variationKey, at)
      if (one !== null) kept.push(one)
    }
  }
  return kept
}

/**
 * A unit's row of an experiment: when and which variation it was first exposed to, and how many
 * distinct variations it was exposed to (more than one: excluded from the analysis).
 */
export interface UnitRow {
  readonly experimentId: string
  readonly unit: string
  readonly firstExposureAt: string
  readonly variationKey: string
  readonly variationsSeen: number
}

/** What each key sent in the current clock hour (this process): the budget of `ingestKeyHour`. */
export class KeyHourItems {
  private hour = 0

  /** `cap`: the items a key may send in one clock hour (what a 429 names). */
  constructor(readonly cap: number = limit("ingestKeyHour")) {}

  private readonly spent = new Map<string, number>()

  /** Takes `n` items from the key's budget for the hour of `now`; false (taking nothing) past it. */
  take(keyId: string, n: number, now: number): boolean {
    const hour = Math.floor(now / HOUR_MS)
    if (hour !== this.hour) {
      this.hour = hour
      this.spent.clear()
    }
    const before = this.spent.get(keyId) ?? 0
    if (before + n > this.cap) return false
    this.spent.set(keyId, before + n)
    return true
  }

  /**
   * Gives back `n` items taken at `takenAt` by a request that kept nothing (it failed, or its batch
   * was a duplicate). Nothing when the hour has turned since: that hour's budget is gone anyway.
   */
  giveBack(keyId: string, n: number, takenAt: number): void {
    if (Math.floor(takenAt / HOUR_MS) !== this.hour) return
    const left = (this.spent.get(keyId) ?? 0) - n
    if (left > 0) this.spent.set(keyId, left)
    else this.spent.delete(keyId)
  }
}

/** A unit's earliest exposure among some exposures, and the distinct variations they name. */
export interface CollapsedExposures {
  readonly units: ReadonlyArray<{ readonly experimentId: string; readonly unit: string; readonly firstAt: string; readonly variationKey: string }>
  readonly variations: ReadonlyArray<{ readonly experimentId: string; readonly unit: string; readonly variationKey: string }>
}

const byExperimentAndUnit = (a: { experimentId: string; unit: string }, b: { experimentId: string; unit: string }) =>
  a.experimentId < b.experimentId ? -1 : a.experimentId > b.experimentId ? 1 : a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0

/**
 * What a write applies, once per unit: its earliest exposure (and that exposure's variation) and
 * each distinct variation, sorted by experiment and unit (so concurrent writes lock in one order).
 */
export const collapseExposures = (exposures: ReadonlyArray<UnitExposure>): CollapsedExposures => {
  const first = new Map<string, UnitExposure>()
  const seen = new Map<string, { experimentId: string; unit: string; variationKey: string }>()
  for (const exposure of exposures) {
    const id = `${exposure.experimentId}\u0000${exposure.unit}`
    const earlier = first.get(id)
    if (earlier === undefined || exposure.at < earlier.at) first.set(id, exposure)
    const variation = `${id}\u0000${exposure.variationKey}`
    if (!seen.has(variation)) seen.set(variation, { experimentId: exposure.experimentId, unit: exposure.unit, variationKey: exposure.variationKey })
  }
  const units = [...first.values()]
    .map((e) => ({ experimentId: e.experimentId, unit: e.unit, firstAt: new Date(e.at).toISOString(), variationKey: e.variationKey }))
    .sort(byExperimentAndUnit)
  const variations = [...seen.values()].sort((a, b) => byExperimentAndUnit(a, b) || (a.variationKey < b.variationKey ? -1 : a.variationKey > b.variationKey ? 1 : 0))
  return { units, variations }
}
