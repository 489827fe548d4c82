/**
 * One condition: the attribute it reads (not for segment operators), the operator (all of the
 * domain's operators), `negate`, and its values typed as the operator wants them.
 */
import { at, within, type Problems } from "../lib/problems.js"
import { inputFor, isOperator, meaning, OPERATOR_NAMES, type OperatorName, takesAttribute } from "../lib/operators.js"
import type { Condition, Segment } from "../lib/types.js"
import { Field } from "./Field.js"
import { ValueInputs } from "./ValueInputs.js"

/** Changing the operator keeps the values only when they are typed the same way. */
const withOperator = (c: Condition, operator: OperatorName): Condition => {
  const sameInput = inputFor(c.operator) === inputFor(operator)
  const values = sameInput ? c.values : []
  const { attribute: _attribute, ...rest } = c
  return takesAttribute(operator)
    ? { ...rest, attribute: c.attribute ?? "", operator, values }
    : { ...rest, operator, values }
}

export const ConditionEditor = (props: {
  condition: Condition
  path: string
  label: string
  problems: Problems
  segments: ReadonlyArray<Segment>
  onChange: (c: Condition) => void
  onRemove: () => void
}) => {
  const { condition: c, path, label } = props
  const set = (patch: Partial<Condition>) => props.onChange({ ...c, ...patch })
  return (
    <div class="condition">
      {takesAttribute(c.operator) ? (
        <Field label={`${label}: attribute`} hint="“key” is the key of the user or thing evaluated; any other name is one of its attributes" problems={at(props.problems, `${path}.attribute`)}>
          {(ctl) => <input {...ctl} value={c.attribute ?? ""} onInput={(e) => set({ attribute: e.currentTarget.value })} />}
        </Field>
      ) : null}
      <Field label={`${label}: operator`} hint={meaning(c.operator)} problems={at(props.problems, `${path}.operator`)}>
        {(ctl) => (
          <select {...ctl} value={c.operator} onChange={(e) => {
              const operator = e.currentTarget.value
              if (isOperator(operator)) props.onChange(withOperator(c, operator))
            }}>
            {OPERATOR_NAMES.map((o) => <option key={o} value={o}>{o}</option>)}
          </select>
        )}
      </Field>
      <label class="check">
        <input type="checkbox" checked={c.negate === true} onChange={(e) => set({ negate: e.currentTarget.checked })} />
        Negate ({label})
      </label>
      <ValueInputs
        key={c.operator}
        input={inputFor(c.operator)}
        values={c.values}
        segments={props.segments}
        problems={within(props.problems, `${path}.values`)}
        label={label}
        onChange={(values) => set({ values })}
      />
      <button type="button" class="secondary small" onClick={props.onRemove}>
        Remove {label.toLowerCase()}
      </button>
    </div>
  )
}
