/**
 * Fast paths for the bodies of `POST /v1/exposures` and `POST /v1/track`. Decoding a batch of up to
 * 1,000 items with Effect Schema (every error, excess properties refused, a filter per field)
 * costs microseconds per item, the largest single cost of ingestion on the event loop; the common,
 * valid batch can be recognised in a fraction of that. Each function accepts ONLY inputs that the
 * route's schema (`strict(ExposureBatch)`, `strict(TrackBatch)`) accepts and returns exactly what
 * the schema decodes them to; anything else answers `undefined`, and the route decodes with the
 * schema, which stays the one source of the 400 and its messages.
 * test/http/FastIngestDecode.test.ts checks the agreement on arbitrary inputs.
 */
import { KEY_PATTERN } from "../../../../src/domain/definitions/Ids.js"
import { isInstantText } from "../../../../src/domain/definitions/InstantText.js"
import { isStorableText } from "../../../../src/domain/definitions/TextCheck.js"
import type { ExposureBatch } from "../../../../src/domain/experiments/Exposure.js"
import type { TrackBatch } from "../../../../src/domain/experiments/MetricEvent.js"
import { limit } from "../../../../src/domain/Limits.js"

const MAX_ITEMS = limit("ingestItems")
const MAX_UNIT = limit("ingestUnitLength")
const MAX_VALUE = limit("ingestValue")

const isPlainRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** `Text` with a length from `min` to `max` (UTF-16 code units, as the schema's `minLength`/`maxLength` count). */
const isText = (u: unknown, min: number, max: number): u is string =>
  typeof u === "string" && u.length >= min && u.length <= max && isStorableText(u)

const isKey = (u: unknown): u is string => typeof u === "string" && KEY_PATTERN.test(u)

/**
 * The last instant checked, remembered: every item of a batch usually carries the same few
 * timestamps, so most are one string comparison.
 */
let lastInstant = ""
const isInstant = (u: unknown): u is string => {
  if (typeof u !== "string") return false
  if (u === lastInstant) return true
  if (!isInstantText(u)) return false
  lastInstant = u
  return true
}

/** The batch fields both bodies share (`projectId`, `environment`, `batchId`), and that `items` is an array within the limit. */
const isBatchScope = (u: Record<string, unknown>, items: string): boolean => {
  for (const key in u) {
    // Only the schema's keys, none of them present with `undefined` (the schema decodes such a key to itself; the slow path has it).
    if (key !== "projectId" && key !== "environment" && key !== "batchId" && key !== items) return false
    if (u[key] === undefined) return false
  }
  const { batchId, environment, projectId } = u
  if (projectId !== undefined && typeof projectId !== "string") return false
  if (environment !== undefined && !isKey(environment)) return false
  if (batchId !== undefined && !isText(batchId, 1, 64)) return false
  const list = u[items]
  return Array.isArray(list) && list.length <= MAX_ITEMS
}

/** One exposure, plainly valid: exactly its five keys, each as the schema wants it. */
const isExposure = (u: unknown): boolean => {
  if (!isPlainRecord(u)) return false
  let n = 0
  for (const key in u) {
    if (key !== "flagKey" && key !== "variationKey" && key !== "ruleId" && key !== "unit" && key !== "timestamp") return false
    n++
  }
  return n === 5 && isKey(u["flagKey"]) && isKey(u["variationKey"]) && isText(u["ruleId"], 0, 128) && isText(u["unit"], 1, MAX_UNIT) &&
    isInstant(u["timestamp"])
}

/** One metric event, plainly valid: `event` and `unit`, and `value` and `timestamp` when present (never present as `undefined`). */
const isEvent = (u: unknown): boolean => {
  if (!isPlainRecord(u)) return false
  for (const key in u) {
    if (key !== "event" && key !== "unit" && key !== "value" && key !== "timestamp") return false
    if (u[key] === undefined) return false
  }
  const { event, timestamp, unit, value } = u
  if (!isText(event, 1, 128) || !isText(unit, 1, MAX_UNIT)) return false
  if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && Math.abs(value) <= MAX_VALUE)) return false
  return timestamp === undefined || isInstant(timestamp)
}

/** The body of `POST /v1/exposures`, when it is plainly valid (JSON objects only: their prototype has no enumerable keys). */
export const exposureBatch = (u: unknown): ExposureBatch | undefined => {
  if (!isPlainRecord(u) || !isBatchScope(u, "exposures")) return undefined
  const exposures = u["exposures"] as ReadonlyArray<unknown>
  for (let i = 0; i < exposures.length; i++) if (!isExposure(exposures[i])) return undefined
  return u as ExposureBatch
}

/** The body of `POST /v1/track`, when it is plainly valid. */
export const trackBatch = (u: unknown): TrackBatch | undefined => {
  if (!isPlainRecord(u) || !isBatchScope(u, "events")) return undefined
  const events = u["events"] as ReadonlyArray<unknown>
  for (let i = 0; i < events.length; i++) if (!isEvent(events[i])) return undefined
  return u as TrackBatch
}
