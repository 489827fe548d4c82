/** How values and times read on the page. */
import { TOTAL_WEIGHT } from "../../src/domain/definitions/RolloutWeight.js"

export const when = (iso: string): string => {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace("T", " ").slice(0, 19) + " UTC"
}

/**
 * `datetime-local` inputs have no zone: the dashboard reads and writes their value as UTC, to the
 * minute (`2026-12-01T09:00`) or, where the input takes seconds, to the second.
 */
export const toUtcInput = (value: unknown, withSeconds = false): string => {
  const d = new Date(typeof value === "number" || typeof value === "string" ? value : Number.NaN)
  return Number.isNaN(d.getTime()) ? "" : d.toISOString().slice(0, withSeconds ? 19 : 16)
}
/** The instant a `datetime-local` value names, read as UTC (`""` when empty). */
export const fromUtcInput = (text: string): string => (text === "" ? "" : text.length === 16 ? `${text}:00Z` : `${text}Z`)

export const showValue = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value))

/** Rollout weights are shares of TOTAL_WEIGHT; people read and type percentages. */
export { TOTAL_WEIGHT }
const PER_PERCENT = TOTAL_WEIGHT / 100
export const percentOf = (weight: number): string => String(weight / PER_PERCENT)
/** The weight for a typed percentage; NaN (sent as null, refused by the API) when it is not a number. */
export const weightOf = (percent: string): number => {
  const n = Number(percent)
  return percent.trim() === "" || !Number.isFinite(n) ? Number.NaN : Math.round(n * PER_PERCENT)
}
