/**
 * The experiment's run on a line from its start to its stop (or now), with each change to the
 * flag's targeting in its environment while it ran marked and numbered: such a change can bias a
 * result (units move between rules), so it is shown where people read the result. The numbered
 * list below is the same in words, with who made each change.
 */
import { useId } from "preact/hooks"
import { when } from "../lib/format.js"
import type { TargetingChange } from "../lib/results.js"

const W = 560
const LEFT = 10
const RIGHT = W - 10
const Y = 32

/** Who made the change, as people read it. */
const by = ({ actor }: TargetingChange): string =>
  actor.email !== undefined
    ? actor.email
    : actor.type === "key"
      ? actor.keyName === undefined || actor.keyName === "" ? "an API key" : `the key “${actor.keyName}”`
      : actor.type === "cli" ? "the command line" : actor.type === "schedule" ? "a scheduled change" : actor.type

/** The audit log's action in words: the targeting in this environment, or the flag's variations. */
const what = (action: string): string => (action === "targeting.updated" ? "targeting changed" : action === "flag.updated" ? "variations changed" : action)

export const TargetingTimeline = (props: { flagKey: string; environment: string; startedAt: string; endedAt: string; stopped: boolean; changes: ReadonlyArray<TargetingChange> }) => {
  const id = useId()
  const start = Date.parse(props.startedAt)
  const end = Math.max(Date.parse(props.endedAt), start + 1)
  const x = (iso: string) => LEFT + ((Math.min(end, Math.max(start, Date.parse(iso))) - start) / (end - start)) * (RIGHT - LEFT)
  const endWord = props.stopped ? "stopped" : "now"
  return (
    <section class="card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Targeting changes while running</h2>
      <svg class="chart timeline" viewBox={`0 0 ${W} 74`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>Changes to {props.flagKey} in {props.environment} from the start to {endWord}</title>
        <desc id={`${id}-desc`}>
          From {when(props.startedAt)} to {when(props.endedAt)}: {props.changes.length === 0 ? "no targeting change." : `${props.changes.length} targeting change${props.changes.length === 1 ? "" : "s"}, listed below.`}
        </desc>
        <line x1={LEFT} x2={RIGHT} y1={Y} y2={Y} class="chart-axis" />
        <line x1={LEFT} x2={LEFT} y1={Y - 6} y2={Y + 6} class="chart-axis" />
        <line x1={RIGHT} x2={RIGHT} y1={Y - 6} y2={Y + 6} class="chart-axis" />
        {props.changes.map((c, i) => (
          <g key={`${c.at}-${i}`} class="timeline-change">
            <line x1={x(c.at)} x2={x(c.at)} y1={Y - 12} y2={Y + 12} />
            <text x={x(c.at)} y={Y - 15} text-anchor="middle">{i + 1}</text>
          </g>
        ))}
        <text x={LEFT} y={Y + 32} class="chart-label">started {when(props.startedAt).slice(0, 16)}</text>
        <text x={RIGHT} y={Y + 32} class="chart-label" text-anchor="end">{endWord}</text>
      </svg>
      {props.changes.length === 0 ? (
        <p>No change to the targeting of {props.flagKey} in {props.environment} since the experiment started.</p>
      ) : (
        <>
          <p>Units may have moved between rules at these times, which can bias the result: read it with them in mind.</p>
          <ol class="timeline-list">
            {props.changes.map((c, i) => <li key={`${c.at}-${i}`}>{when(c.at)}: {what(c.action)} by {by(c)}</li>)}
          </ol>
        </>
      )}
    </section>
  )
}
