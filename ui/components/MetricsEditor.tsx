/**
 * An experiment's metrics (and a release plan's guardrails, GuardrailsEditor): for each, the event SDKs send, whether it counts a conversion (sent at
 * least once) or sums the event's values, which direction is better, its role, and an optional
 * window after the unit's first exposure. Each field shows the API's problems at its own path
 * (`metrics[1].event`).
 */
import { type MetricDraft, NEW_METRIC } from "../lib/experiments.js"
import { at, type Problems } from "../lib/problems.js"
import type { Metric } from "../lib/types.js"
import { Field, Group } from "./Field.js"

const KINDS: ReadonlyArray<readonly [Metric["kind"], string]> = [
  ["conversion", "Conversion: sent at least once"],
  ["mean", "Mean: the sum of its values"]
]
const GOALS: ReadonlyArray<readonly [Metric["goal"], string]> = [
  ["increase", "Increase is better"],
  ["decrease", "Decrease is better"]
]
const ROLES: ReadonlyArray<Metric["role"]> = ["primary", "secondary", "guardrail"]

interface Naming {
  /** The body's field the problems name (`metrics`, or a release plan's `guardrails`). */
  readonly field: string
  /** What one is called on the page: "Metric", "Guardrail". */
  readonly noun: string
  /** Whether its role is chosen (a release plan's guardrails have theirs fixed). */
  readonly roles: boolean
}

const METRICS: Naming = { field: "metrics", noun: "Metric", roles: true }

const MetricFields = (props: { metric: MetricDraft; place: number; naming: Naming; problems: Problems; onChange: (m: MetricDraft) => void; onRemove?: () => void }) => {
  const { metric: m, place, naming } = props
  const path = `${naming.field}[${place - 1}]`
  const label = `${naming.noun} ${place}`
  const set = (change: Partial<MetricDraft>) => props.onChange({ ...m, ...change })
  return (
    <Group legend={label} problems={at(props.problems, path)} class="metric">
      <div class="row">
        <Field label={`${label}: key`} problems={at(props.problems, `${path}.key`)}>
          {(ctl) => <input {...ctl} value={m.key} onInput={(e) => set({ key: e.currentTarget.value })} />}
        </Field>
        <Field label={`${label}: event`} hint="The name SDKs track, e.g. purchase" problems={at(props.problems, `${path}.event`)}>
          {(ctl) => <input {...ctl} value={m.event} onInput={(e) => set({ event: e.currentTarget.value })} />}
        </Field>
        <Field label={`${label}: kind`} problems={at(props.problems, `${path}.kind`)}>
          {(ctl) => (
            <select {...ctl} value={m.kind} onChange={(e) => set({ kind: e.currentTarget.value as Metric["kind"] })}>
              {KINDS.map(([k, words]) => <option key={k} value={k}>{words}</option>)}
            </select>
          )}
        </Field>
        <Field label={`${label}: goal`} problems={at(props.problems, `${path}.goal`)}>
          {(ctl) => (
            <select {...ctl} value={m.goal} onChange={(e) => set({ goal: e.currentTarget.value as Metric["goal"] })}>
              {GOALS.map(([g, words]) => <option key={g} value={g}>{words}</option>)}
            </select>
          )}
        </Field>
        {naming.roles ? (
          <Field label={`${label}: role`} problems={at(props.problems, `${path}.role`)}>
            {(ctl) => (
              <select {...ctl} value={m.role} onChange={(e) => set({ role: e.currentTarget.value as Metric["role"] })}>
                {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
              </select>
            )}
          </Field>
        ) : null}
        <Field label={`${label}: window (hours)`} hint="Empty: any time after the first exposure" problems={at(props.problems, `${path}.windowHours`)}>
          {(ctl) => <input {...ctl} type="number" min="1" step="1" value={m.windowHours} onInput={(e) => set({ windowHours: e.currentTarget.value })} />}
        </Field>
      </div>
      {props.onRemove === undefined ? null : (
        <button type="button" class="secondary small" onClick={props.onRemove}>Remove {naming.noun.toLowerCase()} {place}</button>
      )}
    </Group>
  )
}

export const MetricsEditor = (props: { metrics: ReadonlyArray<MetricDraft>; problems: Problems; onChange: (metrics: ReadonlyArray<MetricDraft>) => void }) => (
  <MetricList
    {...props}
    naming={METRICS}
    legend="Metrics"
    intro="What decides the experiment: the primary metric first; guardrails are metrics that must not get worse."
    fresh={{ ...NEW_METRIC, role: "secondary" }}
    least={1}
  />
)

/** A release plan's guardrails (`guardrails[1].event`): metrics that must not get worse; none is allowed. */
export const GuardrailsEditor = (props: { metrics: ReadonlyArray<MetricDraft>; problems: Problems; fresh: MetricDraft; onChange: (metrics: ReadonlyArray<MetricDraft>) => void }) => (
  <MetricList
    {...props}
    naming={{ field: "guardrails", noun: "Guardrail", roles: false }}
    legend="Guardrails"
    intro="Metrics the ramped variation must not make worse: the plan stops when one shows harm. None: the plan advances on time alone."
    least={0}
  />
)

const MetricList = (props: {
  metrics: ReadonlyArray<MetricDraft>
  problems: Problems
  naming: Naming
  legend: string
  intro: string
  fresh: MetricDraft
  least: number
  onChange: (metrics: ReadonlyArray<MetricDraft>) => void
}) => {
  const { metrics, naming } = props
  const replace = (i: number, m: MetricDraft) => props.onChange(metrics.map((old, j) => (j === i ? m : old)))
  return (
    <Group legend={props.legend} problems={at(props.problems, naming.field)}>
      <p class="muted">{props.intro}</p>
      {metrics.map((m, i) => (
        <MetricFields
          key={i}
          metric={m}
          place={i + 1}
          naming={naming}
          problems={props.problems}
          onChange={(next) => replace(i, next)}
          {...(metrics.length > props.least ? { onRemove: () => props.onChange(metrics.filter((_, j) => j !== i)) } : {})}
        />
      ))}
      <div class="actions">
        <button type="button" class="secondary" onClick={() => props.onChange([...metrics, props.fresh])}>Add {naming.noun.toLowerCase()}</button>
      </div>
    </Group>
  )
}
