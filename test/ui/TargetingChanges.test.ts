/**
 * The human diff of targeting: a table of changes, each with the lines a person reads, and
 * properties over random targeting (no change reads as no line; every line names what it is about).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { conditionText, itemText, targetingChanges } from "../../ui/lib/targetingChanges.js"
import type { ChangeTargeting, Condition, ConditionItem, Rule } from "../../ui/lib/types.js"

const beta: Rule = { id: "r1", name: "Beta", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" }
const staff: Rule = { id: "r2", name: "Staff", conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }], variationKey: "on" }
const rollout: Rule = {
  id: "r3",
  conditions: [],
  rollout: { variations: [{ variationKey: "on", weight: 25_000 }, { variationKey: "off", weight: 75_000 }] }
}
const de: Condition = { attribute: "country", operator: "in", values: ["DE"] }
const enterprise: Condition = { attribute: "plan", operator: "in", values: ["enterprise"] }
const seats: Condition = { attribute: "seats", operator: "gte", values: [10] }
const base: ChangeTargeting = { enabled: false, defaultVariationKey: "off", offVariationKey: "off", rules: [beta, staff, rollout] }
const withRules = (rules: ReadonlyArray<Rule>): ChangeTargeting => ({ ...base, rules })

const cases: ReadonlyArray<{ readonly name: string; readonly before: ChangeTargeting | null; readonly after: ChangeTargeting; readonly lines: ReadonlyArray<string> }> = [
  { name: "nothing changed", before: base, after: { ...base, rules: base.rules.map((r) => ({ ...r })) }, lines: [] },
  { name: "switched on", before: base, after: { ...base, enabled: true }, lines: ["Turned on (was off)"] },
  { name: "switched off", before: { ...base, enabled: true }, after: base, lines: ["Turned off (was on)"] },
  { name: "default variation", before: base, after: { ...base, defaultVariationKey: "on" }, lines: ["Default variation: off → on"] },
  { name: "off variation", before: base, after: { ...base, offVariationKey: "on" }, lines: ["Off variation: off → on"] },
  {
    name: "a condition's values",
    before: base,
    after: withRules([{ ...beta, conditions: [{ attribute: "plan", operator: "in", values: ["beta", "pro"] }] }, staff, rollout]),
    lines: ["Rule 1 'Beta': plan in [beta] → plan in [beta, pro]"]
  },
  {
    name: "a condition added and one removed",
    before: base,
    after: withRules([beta, { ...staff, conditions: [{ attribute: "country", operator: "in", values: ["FR"] }, ...staff.conditions] }, { ...rollout, conditions: [] }]),
    lines: ["Rule 2 'Staff': condition added: country in [FR]"]
  },
  {
    name: "a rollout's shares",
    before: base,
    after: withRules([beta, staff, { ...rollout, rollout: { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] } }]),
    lines: ["Rule 3: rollout on 25% → 50%", "Rule 3: rollout off 75% → 50%"]
  },
  {
    name: "a rollout's bucketing and seed",
    before: base,
    after: withRules([beta, staff, { ...rollout, rollout: { ...rollout.rollout!, bucketBy: "orgId", seed: "s2" } }]),
    lines: ["Rule 3: rollout buckets by key → by orgId", "Rule 3: rollout seed (none) → s2 (everyone is bucketed anew)"]
  },
  {
    name: "a single variation becomes a rollout",
    before: base,
    after: withRules([{ id: "r1", name: "Beta", conditions: beta.conditions, rollout: { variations: [{ variationKey: "on", weight: 10_000 }, { variationKey: "off", weight: 90_000 }] } }, staff, rollout]),
    lines: ["Rule 1 'Beta': serve on → serve rollout on 10%, off 90%"]
  },
  {
    name: "a rule added at the end",
    before: base,
    after: withRules([...base.rules, { name: "France", conditions: [{ attribute: "country", operator: "in", values: ["FR"] }, { attribute: "age", operator: "gte", values: [18] }], variationKey: "on" }]),
    lines: ["Rule 4 'France' added: if country in [FR] and age ≥ [18], serve on"]
  },
  { name: "a rule removed", before: base, after: withRules([beta, rollout]), lines: ["Rule 2 'Staff' removed (was: if email ends with [@example.com], serve on)"] },
  { name: "a rule moved up", before: base, after: withRules([rollout, beta, staff]), lines: ["Rule 1 moved from position 3 to 1"] },
  { name: "a rule moved down", before: base, after: withRules([staff, rollout, beta]), lines: ["Rule 3 'Beta' moved from position 1 to 3"] },
  { name: "a rule renamed", before: base, after: withRules([{ ...beta, name: "Beta users" }, staff, rollout]), lines: ["Rule 1 'Beta users': name 'Beta' → 'Beta users'"] },
  {
    name: "prerequisites added, changed and removed",
    before: { ...base, prerequisites: [{ flagKey: "payments", variationKey: "on" }, { flagKey: "legacy", variationKey: "off" }] },
    after: { ...base, prerequisites: [{ flagKey: "payments", variationKey: "live" }, { flagKey: "auth", variationKey: "on" }] },
    lines: ["Prerequisite payments: serves on → serves live", "Prerequisite removed: legacy serves off", "Prerequisite added: auth serves on"]
  },
  {
    name: "several changes, in the page's order",
    before: base,
    after: { ...base, enabled: true, defaultVariationKey: "on", rules: [beta, staff] },
    lines: ["Turned on (was off)", "Default variation: off → on", "Rule 3 removed (was: everyone, serve rollout on 25%, off 75%)"]
  },
  {
    name: "rules without ids matched by name, then by position",
    before: withRules([{ name: "A", conditions: [], variationKey: "on" }, { conditions: [], variationKey: "off" }]),
    after: withRules([{ conditions: [], variationKey: "on" }, { name: "A", conditions: [], variationKey: "off" }]),
    lines: ["Rule 2 removed (was: everyone, serve off)", "Rule 1 added: everyone, serve on", "Rule 2 'A': serve on → serve off"]
  },
  {
    name: "an “any of these” block added to a rule",
    before: base,
    after: withRules([{ ...beta, conditions: [...beta.conditions, { anyOf: [[de], [enterprise]] }] }, staff, rollout]),
    lines: ["Rule 1 'Beta': condition added: (country in [DE] or plan in [enterprise])"]
  },
  {
    name: "an option of a block changed",
    before: withRules([{ ...beta, conditions: [{ anyOf: [[de], [enterprise]] }] }]),
    after: withRules([{ ...beta, conditions: [{ anyOf: [[de], [enterprise, seats]] }] }]),
    lines: ["Rule 1 'Beta': (country in [DE] or plan in [enterprise]) → (country in [DE] or (plan in [enterprise] and seats ≥ [10]))"]
  },
  {
    name: "a rule with a block added",
    before: base,
    after: withRules([...base.rules, { name: "DACH", conditions: [{ anyOf: [[de], [{ attribute: "country", operator: "in", values: ["AT", "CH"] }]] }, seats], variationKey: "on" }]),
    lines: ["Rule 4 'DACH' added: if (country in [DE] or country in [AT, CH]) and seats ≥ [10], serve on"]
  },
  {
    name: "new targeting (no configuration before)",
    before: null,
    after: { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [beta] },
    lines: ["New targeting: on, default variation on, off variation off", "Rule 1 'Beta' added: if plan in [beta], serve on"]
  }
]

describe("targetingChanges", () => {
  it.each(cases)("$name", ({ before, after, lines }) => {
    expect(targetingChanges(before, after).map((l) => l.text)).toEqual(lines)
  })

  it("marks each line as added, removed or changed", () => {
    const after = { ...base, enabled: true, rules: [beta, rollout, { conditions: [], variationKey: "on" }] }
    expect(targetingChanges(base, after).map((l) => l.kind)).toEqual(["changed", "removed", "added"])
  })
})

describe("conditionText", () => {
  it.each<[Condition, string]>([
    [{ attribute: "plan", operator: "in", values: ["beta", "pro"] }, "plan in [beta, pro]"],
    [{ attribute: "plan", operator: "in", values: ["5", 5, true, "a, b", ""] }, 'plan in ["5", 5, true, "a, b", ""]'],
    [{ attribute: "email", operator: "endsWith", values: ["@x.io"], negate: true }, "not (email ends with [@x.io])"],
    [{ attribute: "version", operator: "semverGt", values: ["2.0.0"] }, "version > [2.0.0]"],
    [{ attribute: "beta", operator: "exists", values: [] }, "beta exists"],
    [{ operator: "inSegment", values: ["staff"] }, "in segment [staff]"],
    [{ operator: "in", values: ["u-1"] }, "key in [u-1]"]
  ])("%j reads %s", (condition, text) => {
    expect(conditionText(condition)).toBe(text)
  })
})

describe("itemText", () => {
  it.each<[ConditionItem, string]>([
    [{ anyOf: [[de]] }, "(country in [DE])"],
    [{ anyOf: [[de, seats]] }, "(country in [DE] and seats ≥ [10])"],
    [{ anyOf: [[de], [enterprise, seats]] }, "(country in [DE] or (plan in [enterprise] and seats ≥ [10]))"],
    [{ anyOf: [[{ ...de, negate: true }], [{ operator: "inSegment", values: ["staff"] }]] }, "(not (country in [DE]) or in segment [staff])"],
    [de, "country in [DE]"]
  ])("%j reads %s", (item, text) => {
    expect(itemText(item)).toBe(text)
  })
})

describe("targetingChanges over random targeting", () => {
  const variation = fc.constantFrom("on", "off", "beta")
  const condition = fc.record({ attribute: fc.constantFrom("plan", "country"), operator: fc.constantFrom("in", "notIn", "contains"), values: fc.array(fc.constantFrom("a", "b", "c"), { minLength: 1, maxLength: 3 }) })
  const group = fc.record({ anyOf: fc.array(fc.array(condition, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 }) })
  const item: fc.Arbitrary<ConditionItem> = fc.oneof(condition, group)
  const rule = fc.record({ id: fc.constantFrom("r1", "r2", "r3", "r4"), conditions: fc.array(item, { maxLength: 3 }), variationKey: variation })
  const targeting = fc.record({
    enabled: fc.boolean(),
    defaultVariationKey: variation,
    offVariationKey: variation,
    rules: fc.uniqueArray(rule, { selector: (r) => r.id, maxLength: 4 })
  })

  it("says nothing exactly when nothing changed", () => {
    fc.assert(
      fc.property(targeting, targeting, (before, after) => {
        const same = JSON.stringify(before) === JSON.stringify(after)
        expect(targetingChanges(before, after).length === 0).toBe(same)
        expect(targetingChanges(before, before)).toEqual([])
      })
    )
  })
})
