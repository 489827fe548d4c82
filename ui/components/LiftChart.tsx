/**
 * One metric's relative lift per treatment, drawn in SVG by hand: each variation's interval as a
 * bar with its estimate as a dot, against the zero line (no change) the interval must clear to
 * count. Its title and description say what it shows and every interval in words; the verdict's
 * word is written beside each bar, so colour is never the only sign.
 */
import { useId } from "preact/hooks"
import { intervalWords, liftLayout, type LiftRow, signedPercent } from "../lib/lift.js"

const W = 560
const LEFT = 12
const PLOT = W - 2 * LEFT
const ROW = 46
const TOP = 6

export interface LiftChartRow extends LiftRow {
  /** The verdict's word shown beside the label ("better", "no clear difference", "untrusted"). */
  readonly word: string
}

export const LiftChart = (props: { title: string; rows: ReadonlyArray<LiftChartRow> }) => {
  const id = useId()
  const chart = liftLayout(props.rows, { left: LEFT, width: PLOT, top: TOP, rowHeight: ROW })
  const axis = chart.height + 4
  const words = props.rows.map((r) => `${r.label}: ${signedPercent(r.estimate)} (${intervalWords(r.ci)}), ${r.word}`).join("; ")
  return (
    <svg class="chart lift-chart" viewBox={`0 0 ${W} ${axis + 26}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
      <title id={`${id}-title`}>{props.title}</title>
      <desc id={`${id}-desc`}>Relative lift against the control, with its interval; an interval that does not cross zero is a clear difference. {words}.</desc>
      {chart.ticks.map((t) => <line key={`g${t.text}`} x1={t.x} x2={t.x} y1={TOP} y2={axis} class="lift-grid" />)}
      <line x1={chart.xZero} x2={chart.xZero} y1={TOP - 4} y2={axis} class="lift-zero" />
      {chart.rows.map((r) => (
        <g key={r.label} class={`lift-${r.verdict}`}>
          <text x={LEFT} y={r.y - 8} class="lift-label">{r.label}: {r.word}</text>
          <line x1={r.xLow} x2={Math.max(r.xHigh, r.xLow + 1)} y1={r.y + 8} y2={r.y + 8} class="lift-interval" />
          <line x1={r.xLow} x2={r.xLow} y1={r.y + 3} y2={r.y + 13} class="lift-interval" />
          <line x1={r.xHigh} x2={r.xHigh} y1={r.y + 3} y2={r.y + 13} class="lift-interval" />
          <circle cx={r.xEstimate} cy={r.y + 8} r={5} class="lift-estimate" />
        </g>
      ))}
      <line x1={LEFT} x2={LEFT + PLOT} y1={axis} y2={axis} class="chart-axis" />
      {chart.ticks.map((t, i) => (
        <text key={`t${t.text}`} x={t.x} y={axis + 20} class="chart-label" text-anchor={i === 0 ? "start" : i === chart.ticks.length - 1 ? "end" : "middle"}>{t.text}</text>
      ))}
    </svg>
  )
}
