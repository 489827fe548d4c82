/**
 * The dashboard's "any of these" blocks, without a browser: removing a condition never leaves a
 * shape the API refuses, the limits are the domain's, and a segment named inside a block counts
 * as used by the flag.
 */
import { describe, expect, it } from "vitest"
import { LIMITS } from "../../src/domain/Limits.js"
import { CONDITIONS_PER_LIST, LISTS_PER_GROUP, newGroup, plainConditions, withoutCondition } from "../../ui/lib/groups.js"
import type { Condition, ConditionGroup, Flag } from "../../ui/lib/types.js"
import { flagsUsing } from "../../ui/lib/usage.js"

const de: Condition = { attribute: "country", operator: "in", values: ["DE"] }
const pro: Condition = { attribute: "plan", operator: "in", values: ["pro"] }
const staff: Condition = { operator: "inSegment", values: ["staff"] }

describe("withoutCondition", () => {
  const group: ConditionGroup = { anyOf: [[de, pro], [staff]] }

  it("removes one condition of an option", () => {
    expect(withoutCondition(group, 0, 1)).toEqual({ anyOf: [[de], [staff]] })
  })

  it("removes an option left empty", () => {
    expect(withoutCondition(group, 1, 0)).toEqual({ anyOf: [[de, pro]] })
  })

  it("gives null when the last condition of the last option goes (the block itself goes)", () => {
    expect(withoutCondition({ anyOf: [[de]] }, 0, 0)).toBeNull()
  })
})

describe("the editor's limits and new blocks", () => {
  it("are the API's (20 options of 20 conditions)", () => {
    expect([LISTS_PER_GROUP, CONDITIONS_PER_LIST]).toEqual([LIMITS.listsPerGroup.value, LIMITS.conditionsPerList.value])
    expect([LISTS_PER_GROUP, CONDITIONS_PER_LIST]).toEqual([20, 20])
  })

  it("starts a block with one option of one condition (never an empty list)", () => {
    expect(newGroup().anyOf.map((l) => l.length)).toEqual([1])
  })

  it("opens blocks in place, one level", () => {
    expect(plainConditions([de, { anyOf: [[pro], [staff, de]] }])).toEqual([de, pro, staff, de])
  })
})

describe("flagsUsing", () => {
  const flag = (key: string, conditions: Flag["configs"][number]["rules"][number]["conditions"]): Flag =>
    ({ key, configs: [{ rules: [{ id: "r1", conditions, variationKey: "on" }] }] }) as unknown as Flag

  it("counts a segment named inside a block, and outside one", () => {
    const usage = flagsUsing([
      flag("checkout", [de, { anyOf: [[pro], [{ operator: "inSegment", values: ["staff", "beta"] }]] }]),
      flag("search", [{ operator: "notInSegment", values: ["staff"] }]),
      flag("plain", [de])
    ])
    expect(Object.fromEntries(usage)).toEqual({ staff: ["checkout", "search"], beta: ["checkout"] })
  })
})
