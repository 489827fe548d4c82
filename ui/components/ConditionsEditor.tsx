/**
 * The conditions of a rule or a segment, all of which must hold: each item a condition or an "any
 * of these" block (GroupEditor), with buttons to add either. Items are labelled by place
 * (`Rule 1 condition 2`), so an API problem at `conditions[1]...` lands beside the control.
 */
import { isGroup, newCondition, newGroup } from "../lib/groups.js"
import type { Problems } from "../lib/problems.js"
import type { ConditionItem, Segment } from "../lib/types.js"
import { ConditionEditor } from "./ConditionEditor.js"
import { GroupEditor } from "./GroupEditor.js"

export const ConditionsEditor = (props: {
  items: ReadonlyArray<ConditionItem>
  /** The path of the list (`rules[0].conditions`). */
  path: string
  /** The label of item `i` (`Rule 1 condition 2`). */
  itemLabel: (i: number) => string
  /** The buttons' accessible names: add a condition, add a block. */
  addCondition: string
  addGroup: string
  problems: Problems
  segments: ReadonlyArray<Segment>
  onChange: (items: ReadonlyArray<ConditionItem>) => void
}) => {
  const { items } = props
  const replace = (i: number, next: ConditionItem) => props.onChange(items.map((old, j) => (j === i ? next : old)))
  const remove = (i: number) => props.onChange(items.filter((_, j) => j !== i))
  return (
    <>
      {items.map((c, i) => {
        const shared = { path: `${props.path}[${i}]`, label: props.itemLabel(i), problems: props.problems, segments: props.segments, onRemove: () => remove(i) }
        return isGroup(c) ? <GroupEditor key={i} {...shared} group={c} onChange={(next) => replace(i, next)} /> : <ConditionEditor key={i} {...shared} condition={c} onChange={(next) => replace(i, next)} />
      })}
      <div class="actions">
        <button type="button" class="secondary small" onClick={() => props.onChange([...items, newCondition()])}>
          {props.addCondition}
        </button>
        <button type="button" class="secondary small" onClick={() => props.onChange([...items, newGroup()])}>
          {props.addGroup}
        </button>
      </div>
    </>
  )
}
