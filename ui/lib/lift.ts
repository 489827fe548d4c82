/**
 * How a metric's result reads: each treatment's relative lift against the control as words ("Checkout
 * v2 raised purchases by 4.1% (1.2% to 7.0%)") and as the geometry of the lift chart (an interval
 * per variation on one scale that always shows zero, the line the interval must clear). Pure, so
 * it is tested without a browser.
 */
import type { Verdict } from "./results.js"

/** A share as a percentage to one decimal, with a real minus sign: -0.03 is "−3.0%". */
export const percent = (share: number): string => {
  const text = (Math.abs(share) * 100).toFixed(1)
  return `${share < 0 && text !== "0.0" ? "−" : ""}${text}%`
}

/** The same, signed either way: "+1.2%", "−3.0%" (for a change with no clear direction). */
export const signedPercent = (share: number): string => (share > 0 && percent(share) !== "0.0%" ? `+${percent(share)}` : percent(share))

export const intervalWords = (ci: readonly [number, number]): string => `${percent(ci[0])} to ${percent(ci[1])}`

/** Why a verdict holds back, when it does. */
export type Caveat = "none" | "not-enough-data" | "mismatch"

/**
 * One treatment's result in a sentence. A clear result names its direction ("raised", "lowered"),
 * taken from the difference of the means when given (`difference`): over a negative control mean
 * the lift's sign is the opposite of the change's (−10 to −5 is a lift of −50%, and a rise). An
 * inconclusive one does not pretend to one; a result of a mismatched sample or one with too
 * few units says so instead of a verdict.
 */
export const verdictSentence = (p: {
  variation: string
  metric: string
  estimate: number
  ci: readonly [number, number] | null
  verdict: Verdict
  caveat: Caveat
  difference?: number | undefined
}): string => {
  if (p.ci === null) return `${p.variation} changed ${p.metric} by ${signedPercent(p.estimate)}: too few units for an interval yet.`
  const interval = intervalWords(p.ci)
  if (p.caveat === "mismatch") return `${p.variation} changed ${p.metric} by ${signedPercent(p.estimate)} (${interval}), but the sample is mismatched: do not trust this.`
  if (p.caveat === "not-enough-data") return `${p.variation} changed ${p.metric} by ${signedPercent(p.estimate)} (${interval}): not enough data yet.`
  if (p.verdict === "inconclusive") return `${p.variation} changed ${p.metric} by ${signedPercent(p.estimate)} (${interval}): no clear difference yet.`
  return `${p.variation} ${(p.difference ?? p.estimate) >= 0 ? "raised" : "lowered"} ${p.metric} by ${percent(Math.abs(p.estimate))} (${interval}).`
}

/** The verdict's word on the chart and in the table. */
export const verdictWord = (verdict: Verdict, caveat: Caveat): string =>
  caveat === "mismatch" ? "untrusted" : caveat === "not-enough-data" ? "too few units" : verdict === "inconclusive" ? "no clear difference" : verdict

export interface LiftRow {
  readonly label: string
  readonly estimate: number
  readonly ci: readonly [number, number]
  readonly verdict: Verdict
}

export interface Placement {
  readonly y: number
  readonly xLow: number
  readonly xHigh: number
  readonly xEstimate: number
}

export interface LiftLayout<R extends LiftRow> {
  readonly rows: ReadonlyArray<R & Placement>
  readonly xZero: number
  readonly ticks: ReadonlyArray<{ readonly x: number; readonly text: string }>
  readonly height: number
}

/** A step of 1, 2 or 5 times a power of ten giving about `count` ticks over `span`. */
const niceStep = (span: number, count: number): number => {
  const raw = span / count
  const power = 10 ** Math.floor(Math.log10(raw))
  const unit = raw / power
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power
}

/** Rows of `rowHeight` from `top`, x from `left` to `left + width`, zero always inside the scale. */
export const liftLayout = <R extends LiftRow>(rows: ReadonlyArray<R>, geometry: { left: number; width: number; top: number; rowHeight: number }): LiftLayout<R> => {
  const finite = rows.flatMap((r) => [r.ci[0], r.ci[1], r.estimate]).filter(Number.isFinite)
  const low = Math.min(0, ...finite)
  const high = Math.max(0, ...finite)
  // At least a 1% span: a nearly empty one (all at zero, or a denormal) would give no usable step.
  const step = niceStep(Math.max(high - low, 0.01), 4)
  const from = Math.floor(low / step) * step
  const to = Math.max(from + step, Math.ceil(high / step) * step)
  const x = (v: number) => geometry.left + ((Math.min(to, Math.max(from, v)) - from) / (to - from)) * geometry.width
  const ticks: Array<{ x: number; text: string }> = []
  for (let i = 0, v = from; v <= to + step / 2 && i < 50; i++, v = from + i * step) ticks.push({ x: x(v), text: signedPercent(Math.abs(v) < step / 1e6 ? 0 : v) })
  return {
    rows: rows.map((r, i) => ({ ...r, y: geometry.top + (i + 0.5) * geometry.rowHeight, xLow: x(r.ci[0]), xHigh: x(r.ci[1]), xEstimate: x(r.estimate) })),
    xZero: x(0),
    ticks,
    height: geometry.top + rows.length * geometry.rowHeight
  }
}
