/**
 * One targeting rule: its name, its conditions (all must hold; any of them may be an "any of
 * these" block), and what it serves: one variation or a percentage rollout. Buttons move it up or
 * down and remove it.
 */
import type { Problems } from "../lib/problems.js"
import { at } from "../lib/problems.js"
import type { Rule, Segment, Variation } from "../lib/types.js"
import { ConditionsEditor } from "./ConditionsEditor.js"
import { Field } from "./Field.js"
import { evenRollout, RolloutEditor } from "./RolloutEditor.js"

const ROLLOUT = "\u0000rollout"

const serving = (rule: Rule): string => (rule.rollout !== undefined ? ROLLOUT : rule.variationKey ?? "")

const serve = (rule: Rule, choice: string, variations: ReadonlyArray<Variation>): Rule => {
  const { variationKey: _v, rollout: _r, ...rest } = rule
  return choice === ROLLOUT ? { ...rest, rollout: rule.rollout ?? evenRollout(variations) } : { ...rest, variationKey: choice }
}

export const RuleEditor = (props: {
  rule: Rule
  index: number
  count: number
  variations: ReadonlyArray<Variation>
  segments: ReadonlyArray<Segment>
  problems: Problems
  onChange: (r: Rule) => void
  onMove: (by: -1 | 1) => void
  onRemove: () => void
}) => {
  const { rule, index } = props
  const path = `rules[${index}]`
  const label = `Rule ${index + 1}`
  return (
    <li class="rule" aria-label={`${label}${rule.name ? `: ${rule.name}` : ""}`}>
      <div class="rule-head">
        <h4>{label}</h4>
        <div class="actions">
          <button type="button" class="secondary small" disabled={index === 0} onClick={() => props.onMove(-1)}>
            Move up<span class="visually-hidden"> {label.toLowerCase()}</span>
          </button>
          <button type="button" class="secondary small" disabled={index === props.count - 1} onClick={() => props.onMove(1)}>
            Move down<span class="visually-hidden"> {label.toLowerCase()}</span>
          </button>
          <button type="button" class="danger small" onClick={props.onRemove}>
            Remove<span class="visually-hidden"> {label.toLowerCase()}</span>
          </button>
        </div>
      </div>
      <Field label={`${label}: name`} problems={at(props.problems, `${path}.name`)}>
        {(ctl) => (
          <input
            {...ctl}
            value={rule.name ?? ""}
            onInput={(e) => {
              const { name: _n, ...rest } = rule
              const name = e.currentTarget.value
              props.onChange(name === "" ? rest : { ...rest, name })
            }}
          />
        )}
      </Field>
      <div class="conditions">
        <p class="muted">{rule.conditions.length === 0 ? "No conditions: every context matches." : "Every condition must hold."}</p>
        <ConditionsEditor
          items={rule.conditions}
          path={`${path}.conditions`}
          itemLabel={(i) => `${label} condition ${i + 1}`}
          addCondition={`Add condition to ${label.toLowerCase()}`}
          addGroup={`Add “any of these” block to ${label.toLowerCase()}`}
          problems={props.problems}
          segments={props.segments}
          onChange={(conditions) => props.onChange({ ...rule, conditions })}
        />
      </div>
      <Field label={`${label}: serve`} problems={[...at(props.problems, `${path}.variationKey`), ...at(props.problems, path)]}>
        {(ctl) => (
          <select {...ctl} value={serving(rule)} onChange={(e) => props.onChange(serve(rule, e.currentTarget.value, props.variations))}>
            {serving(rule) === "" ? <option value="">Choose…</option> : null}
            {props.variations.map((v) => <option key={v.key} value={v.key}>{v.key}</option>)}
            <option value={ROLLOUT}>a percentage rollout</option>
          </select>
        )}
      </Field>
      {rule.rollout === undefined ? null : (
        <RolloutEditor
          rollout={rule.rollout}
          variations={props.variations}
          path={`${path}.rollout`}
          label={label}
          problems={props.problems}
          onChange={(rollout) => props.onChange({ ...rule, rollout })}
        />
      )}
    </li>
  )
}
