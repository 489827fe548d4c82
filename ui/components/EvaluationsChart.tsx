/**
 * How often each variation of a flag was served in one environment, hour by hour
 * (`GET .../flags/{flagKey}/insights`): a stacked bar chart drawn in SVG, named and summed up for
 * screen readers, with the same numbers as a table beside it, and when the flag was last evaluated.
 */
import { useState } from "preact/hooks"
import { projectPath, request, seg } from "../lib/api.js"
import { layout } from "../lib/chart.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import type { InsightsSeries } from "../lib/types.js"
import { Field } from "./Field.js"
import { Waiting } from "./Status.js"
import { Table } from "./Table.js"

const HOUR = 3_600_000
const PERIODS = [
  { hours: 24, label: "the last 24 hours" },
  { hours: 7 * 24, label: "the last 7 days" },
  { hours: 31 * 24, label: "the last 31 days" }
] as const
/** Colours most people tell apart, each at least 3:1 against white; SVG fills, as the Content-Security-Policy allows no inline style. */
const COLOURS = ["#0550ae", "#bc4c00", "#116329", "#8250df", "#a40e26", "#57606a"]
const colour = (i: number) => COLOURS[i % COLOURS.length]!
const W = 720
const H = 160

const loadSeries = (projectId: string, flagKey: string, environment: string, hours: number) => {
  const now = Date.now()
  const query = new URLSearchParams({ environment, from: new Date(now - (hours - 1) * HOUR).toISOString(), to: new Date(now).toISOString() })
  return request<InsightsSeries>("GET", projectPath(projectId, `/flags/${seg(flagKey)}/insights?${query.toString()}`))
}

const Bars = ({ series, title }: { series: InsightsSeries; title: string }) => {
  const chart = layout(series, W, H)
  const summary = series.variations.map((v) => `${v.variationKey}: ${v.total}`).join(", ")
  return (
    <svg class="chart" viewBox={`0 -14 ${W} ${H + 32}`} role="img" aria-labelledby="chart-title chart-desc">
      <title id="chart-title">{title}</title>
      <desc id="chart-desc">Evaluations per variation in the period: {summary}. The busiest hour had {chart.max}. The table below lists every hour.</desc>
      <text x={0} y={-3} class="chart-scale">{chart.max} per hour</text>
      <line x1={0} x2={W} y1={H} y2={H} class="chart-axis" />
      {chart.bars.map((b) => (
        <g key={b.hour}>
          {b.slices.map((s, i) => (s.height === 0 ? null : <rect key={s.variationKey} x={b.x} y={s.y} width={b.width} height={s.height} fill={colour(i)} />))}
        </g>
      ))}
      {chart.labels.map((l) => <text key={l.x} x={l.x} y={H + 14} class="chart-label">{l.text}</text>)}
    </svg>
  )
}

const HourTable = ({ series }: { series: InsightsSeries }) => (
  <details>
    <summary>Every hour as a table</summary>
    <Table caption={<>Evaluations per hour (UTC) and variation</>}>
      <thead>
        <tr>
          <th scope="col">Hour (UTC)</th>
          {series.variations.map((v) => <th scope="col" key={v.variationKey}>{v.variationKey}</th>)}
        </tr>
      </thead>
      <tbody>
        {(series.variations[0]?.points ?? []).map((p, i) => (
          <tr key={p.hour}>
            <th scope="row">{when(p.hour)}</th>
            {series.variations.map((v) => <td key={v.variationKey}>{v.points[i]?.count ?? 0}</td>)}
          </tr>
        ))}
      </tbody>
    </Table>
  </details>
)

export const EvaluationsChart = (props: { projectId: string; flagKey: string; environment: string; lastEvaluatedAt: string | null | undefined }) => {
  const [hours, setHours] = useState<number>(PERIODS[0].hours)
  const { loaded } = useLoad(() => loadSeries(props.projectId, props.flagKey, props.environment, hours), [props.projectId, props.flagKey, props.environment, hours])
  const series = loaded.state === "ready" ? loaded.data : null
  // Named after the series shown, not the choice: while another period loads, the last one stays.
  const shownHours = series?.variations[0]?.points.length ?? hours
  const period = PERIODS.find((p) => p.hours === shownHours)?.label ?? `the last ${shownHours} hours`
  const total = series?.variations.reduce((sum, v) => sum + v.total, 0) ?? 0
  return (
    <section class="card" aria-labelledby="evaluations-title">
      <h2 id="evaluations-title">Evaluations in {props.environment}</h2>
      <p>
        Last evaluated in {props.environment}: {props.lastEvaluatedAt === undefined || props.lastEvaluatedAt === null ? "never" : when(props.lastEvaluatedAt)}.
      </p>
      <div class="row">
        <Field label="Period">
          {(ctl) => (
            <select {...ctl} value={hours} onChange={(e) => setHours(Number(e.currentTarget.value))}>
              {PERIODS.map((p) => <option key={p.hours} value={p.hours}>{p.label}</option>)}
            </select>
          )}
        </Field>
      </div>
      {series === null ? (
        <Waiting loaded={loaded} />
      ) : total === 0 ? (
        <p>No evaluation of {props.flagKey} in {props.environment} was counted in {period}.</p>
      ) : (
        <>
          <ul class="legend" aria-label="Variations">
            {series.variations.map((v, i) => (
              <li key={v.variationKey}>
                <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true"><rect width="10" height="10" fill={colour(i)} /></svg>
                <code>{v.variationKey}</code>: {v.total}
              </li>
            ))}
          </ul>
          <Bars series={series} title={`Evaluations of ${props.flagKey} in ${props.environment} per hour, ${period}`} />
          <HourTable series={series} />
        </>
      )}
      <p class="muted">
        Counted on every evaluation by this server (stored within 10 seconds) and as SDKs report theirs. Hours are in UTC.
      </p>
    </section>
  )
}
