/**
 * An "any of these" block (`{ anyOf: [[...], ...] }`): it holds when every condition of at least
 * one of its options (inner lists) holds. Each option is a list of plain conditions: the editor
 * offers no group inside a group (one level), and stops adding at the API's limits (20 options of
 * 20 conditions). Removing an option's last condition removes the option, and removing the last
 * option removes the block, so the editor never holds a shape the API refuses.
 */
import { CONDITIONS_PER_LIST, LISTS_PER_GROUP, newCondition, withoutCondition } from "../lib/groups.js"
import { at, type Problems } from "../lib/problems.js"
import type { Condition, ConditionGroup, Segment } from "../lib/types.js"
import { ConditionEditor } from "./ConditionEditor.js"
import { Group } from "./Field.js"

export const GroupEditor = (props: {
  group: ConditionGroup
  path: string
  label: string
  problems: Problems
  segments: ReadonlyArray<Segment>
  onChange: (g: ConditionGroup) => void
  onRemove: () => void
}) => {
  const { group, path, label } = props
  const lower = label.toLowerCase()
  const setList = (j: number, list: ReadonlyArray<Condition>) => props.onChange({ anyOf: group.anyOf.map((old, i) => (i === j ? list : old)) })
  const removeCondition = (j: number, k: number) => {
    const next = withoutCondition(group, j, k)
    if (next === null) props.onRemove()
    else props.onChange(next)
  }
  const removeOption = (j: number) => {
    const anyOf = group.anyOf.filter((_, i) => i !== j)
    if (anyOf.length === 0) props.onRemove()
    else props.onChange({ anyOf })
  }
  return (
    <Group legend={`${label}: any of these`} class="condition-group" problems={[...at(props.problems, path), ...at(props.problems, `${path}.anyOf`)]}>
      <p class="muted">Holds when every condition of at least one option holds.</p>
      {group.anyOf.map((list, j) => {
        const option = `${label}, option ${j + 1}`
        return (
          <Group key={j} legend={`Option ${j + 1}: all of these`} class="condition-option" problems={at(props.problems, `${path}.anyOf[${j}]`)}>
            {list.map((c, k) => (
              <ConditionEditor
                key={k}
                condition={c}
                path={`${path}.anyOf[${j}][${k}]`}
                label={`${option} condition ${k + 1}`}
                problems={props.problems}
                segments={props.segments}
                onChange={(next) => setList(j, list.map((old, i) => (i === k ? next : old)))}
                onRemove={() => removeCondition(j, k)}
              />
            ))}
            {list.length >= CONDITIONS_PER_LIST ? <p class="muted">At most {CONDITIONS_PER_LIST} conditions in one option.</p> : null}
            <div class="actions">
              <button type="button" class="secondary small" disabled={list.length >= CONDITIONS_PER_LIST} onClick={() => setList(j, [...list, newCondition()])}>
                Add condition<span class="visually-hidden"> to {option.toLowerCase()}</span>
              </button>
              <button type="button" class="secondary small" onClick={() => removeOption(j)}>
                Remove option {j + 1}<span class="visually-hidden"> of {lower}</span>
              </button>
            </div>
          </Group>
        )
      })}
      <div class="actions">
        <button type="button" class="secondary small" disabled={group.anyOf.length >= LISTS_PER_GROUP} onClick={() => props.onChange({ anyOf: [...group.anyOf, [newCondition()]] })}>
          Add option<span class="visually-hidden"> to {lower}</span>
        </button>
        <button type="button" class="secondary small" onClick={props.onRemove}>
          Remove “any of these”<span class="visually-hidden"> {lower}</span>
        </button>
      </div>
      {group.anyOf.length >= LISTS_PER_GROUP ? <p class="muted">At most {LISTS_PER_GROUP} options in one block.</p> : null}
    </Group>
  )
}
