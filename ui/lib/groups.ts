/**
 * "Any of these" blocks (`{ anyOf: [[Condition, ...], ...] }`) as the dashboard edits them. How a
 * group is told from a condition (its `anyOf` field) and its limits come from the domain's own
 * declarations (conditions/ConditionItems.ts, Limits.ts: pure data), so the editor offers exactly
 * what the API accepts.
 */
import { isGroupShaped, plainConditions as openGroups } from "../../src/domain/conditions/ConditionItems.js"
import { LIMITS } from "../../src/domain/Limits.js"
import type { Condition, ConditionGroup, ConditionItem } from "./types.js"

/** At most this many lists in one group, and this many conditions in one list. */
export const LISTS_PER_GROUP = LIMITS.listsPerGroup.value
export const CONDITIONS_PER_LIST = LIMITS.conditionsPerList.value

export const isGroup = (item: ConditionItem): item is ConditionGroup => isGroupShaped(item)

/** The conditions of a list of conditions and groups, each group's lists opened in place. */
export const plainConditions = (items: ReadonlyArray<ConditionItem>): ReadonlyArray<Condition> => openGroups<Condition>(items)

/** What the editor adds: a condition to fill in. */
export const newCondition = (): Condition => ({ attribute: "", operator: "in", values: [] })

/** A new group: one list holding one condition to fill in (a group or a list with nothing in it is refused). */
export const newGroup = (): ConditionGroup => ({ anyOf: [[newCondition()]] })

/**
 * The group without the condition at (`list`, `at`); a list left empty goes, and a group left
 * without lists is null (the item itself goes), so the editor never holds a shape the API refuses.
 */
export const withoutCondition = (group: ConditionGroup, list: number, at: number): ConditionGroup | null => {
  const anyOf = group.anyOf.map((l, j) => (j === list ? l.filter((_, k) => k !== at) : l)).filter((l) => l.length > 0)
  return anyOf.length === 0 ? null : { anyOf }
}
