/**
 * One metric's result: each treatment's verdict in a sentence, the lift chart, and the figures as
 * a table (the chart's text alternative: units, mean, the absolute and relative difference with
 * their intervals, the p-value or the chance to beat the control, whether CUPED narrowed it).
 */
import { type Caveat, percent, signedPercent, verdictSentence, verdictWord } from "../lib/lift.js"
import { metricWords } from "../lib/experiments.js"
import type { Estimate, MetricResult, TreatmentComparison } from "../lib/results.js"
import type { Metric } from "../lib/types.js"
import { LiftChart } from "./LiftChart.js"
import { Table } from "./Table.js"

const number = (n: number): string => (Number.isInteger(n) ? n.toLocaleString("en") : n.toLocaleString("en", { maximumSignificantDigits: 4 }))

/** The p-value, or the chance to beat the control for a Bayesian analysis. */
const evidence = (c: TreatmentComparison): string =>
  c.chanceToBeatControl !== null ? `${percent(c.chanceToBeatControl)} chance to beat control` : c.pValue !== null ? `p = ${c.pValue < 0.0001 ? "< 0.0001" : c.pValue.toFixed(4)}` : ""

/** An estimate and its interval: `words` for the estimate, `bound` for the interval's ends. */
const interval = (e: Estimate | null, words: (x: number) => string, bound = words): string =>
  e === null ? "" : e.ci === null ? words(e.estimate) : `${words(e.estimate)} (${bound(e.ci[0])} to ${bound(e.ci[1])})`

export const MetricResultCard = (props: {
  metric: Metric
  result: MetricResult
  controlKey: string
  nameOf: (variationKey: string) => string
  caveat: Caveat
}) => {
  const { metric, result, caveat } = props
  const comparisonOf = (key: string) => result.comparisons.find((c) => c.variationKey === key)
  // The chart shows the treatments whose lift has an interval; the sentences say why the others have none.
  const rows = result.comparisons.flatMap((c) =>
    c.relative === null || c.relative.ci === null
      ? []
      : [{ label: props.nameOf(c.variationKey), estimate: c.relative.estimate, ci: c.relative.ci, verdict: caveat === "none" ? c.verdict : ("inconclusive" as const), word: verdictWord(c.verdict, caveat) }]
  )
  const headingId = `metric-${metric.key}`
  return (
    <section class="card metric-result" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {metric.key} <span class="muted">{metricWords(metric)}</span>
      </h3>
      <ul class="verdicts">
        {result.comparisons.map((c) => (
          <li key={c.variationKey} class={`verdict-${caveat === "none" ? c.verdict : "inconclusive"}`}>
            <strong>
              {c.relative === null
                ? `${props.nameOf(c.variationKey)}: no relative lift while ${props.nameOf(props.controlKey)} has a mean of 0.`
                : verdictSentence({ variation: props.nameOf(c.variationKey), metric: metric.key, estimate: c.relative.estimate, ci: c.relative.ci, verdict: c.verdict, caveat, difference: c.absolute?.estimate })}
            </strong>
          </li>
        ))}
      </ul>
      {rows.length === 0 ? null : <LiftChart title={`${metric.key}: relative lift of each variation against ${props.nameOf(props.controlKey)}`} rows={rows} />}
      <Table caption={<>{metric.key} per variation</>}>
        <thead>
          <tr>
            <th scope="col">Variation</th>
            <th scope="col">Units</th>
            <th scope="col">Mean</th>
            <th scope="col">Difference</th>
            <th scope="col">Lift</th>
            <th scope="col">Evidence</th>
          </tr>
        </thead>
        <tbody>
          {result.variations.map((v) => {
            const c = comparisonOf(v.variationKey)
            return (
              <tr key={v.variationKey}>
                <th scope="row">
                  {props.nameOf(v.variationKey)}
                  {v.variationKey === props.controlKey ? <span class="muted"> (control)</span> : null}
                </th>
                <td>{number(v.units)}</td>
                <td>{number(v.mean)}</td>
                <td>{c === undefined ? "" : interval(c.absolute, number)}</td>
                <td>{c === undefined ? "" : interval(c.relative, signedPercent, percent)}</td>
                <td>
                  {c === undefined ? "" : evidence(c)}
                  {c?.cupedApplied === true ? <span class="muted"> · CUPED</span> : null}
                </td>
              </tr>
            )
          })}
        </tbody>
      </Table>
    </section>
  )
}
