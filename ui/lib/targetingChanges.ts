/**
 * A change to a flag's targeting in one environment, as people read it: one line per thing that
 * changed ("Rule 2 'Beta': plan in [beta] → plan in [beta, pro]", "Rule 1: rollout on 25% → 50%",
 * "Rule 3 added: if country in [FR], serve on", "Default variation: off → on") rather than the
 * request's JSON (which stays one click away, for developers).
 *
 * Rules are matched by id (stored rules always have one; a rule added in the editor has none
 * yet, so it is new), then by name, then by position for rules that have neither. A rule whose
 * place changed relative to the others is reported as moved (only those outside the longest run
 * that kept its order, so moving one rule up does not report every rule it passed). Conditions
 * have no identity: they are compared as texts in order, and a removed text followed by an added
 * one reads as that condition changed. An "any of these" block reads as its options joined by
 * "or" in parentheses, an option of several conditions in its own ("(country in [DE] or (plan in
 * [pro] and seats ≥ [10]))"), and is compared as one text like a condition.
 */
import { diffLines } from "./diff.js"
import { percentOf } from "./format.js"
import { isGroup } from "./groups.js"
import type { ChangeTargeting, Condition, ConditionGroup, ConditionItem, Prerequisite, Rule } from "./types.js"

export interface ChangeLine {
  readonly kind: "added" | "removed" | "changed"
  readonly text: string
}

/** How each operator reads between an attribute and its values; unknown operators read as their name. */
const OPERATOR_WORDS: Readonly<Record<string, string>> = {
  in: "in",
  notIn: "not in",
  contains: "contains",
  startsWith: "starts with",
  endsWith: "ends with",
  matches: "matches",
  lt: "<",
  lte: "≤",
  gt: ">",
  gte: "≥",
  before: "before",
  after: "after",
  semverEq: "=",
  semverLt: "<",
  semverGt: ">",
  exists: "exists",
  inSegment: "in segment",
  notInSegment: "not in segment"
}

/** Whether a string reads the same as the JSON value it spells (`5`, `true`, `null`): then it is quoted, so "5" and 5 differ. */
const looksLikeJson = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** A value in a list: text as it is, unless that would be ambiguous there (then quoted as JSON). */
const valueText = (value: unknown): string =>
  typeof value === "string" && value !== "" && value.trim() === value && !/[,[\]\n"]/.test(value) && !looksLikeJson(value) ? value : JSON.stringify(value)

export const conditionText = (c: Condition): string => {
  const words = OPERATOR_WORDS[c.operator] ?? c.operator
  const values = c.operator === "exists" ? "" : ` [${c.values.map(valueText).join(", ")}]`
  const subject = c.operator === "inSegment" || c.operator === "notInSegment" ? "" : `${c.attribute ?? "key"} `
  const text = `${subject}${words}${values}`
  return c.negate === true ? `not (${text})` : text
}

/** A block: `(A or (B and C))`; a block of one option reads as that option in parentheses. */
export const groupText = (g: ConditionGroup): string => {
  const options = g.anyOf.map((list) => list.map(conditionText).join(" and "))
  return options.length === 1 ? `(${options[0]})` : `(${g.anyOf.map((list, j) => (list.length > 1 ? `(${options[j]})` : options[j])).join(" or ")})`
}

/** A condition or a block, as one line of text. */
export const itemText = (c: ConditionItem): string => (isGroup(c) ? groupText(c) : conditionText(c))

const rolloutText = (r: NonNullable<Rule["rollout"]>): string => `rollout ${r.variations.map((v) => `${v.variationKey} ${percentOf(v.weight)}%`).join(", ")}`

/** What a rule serves: `serve on` or `serve rollout on 25%, off 75%`. */
const servesText = (rule: Rule): string => (rule.rollout === undefined ? `serve ${rule.variationKey ?? "?"}` : `serve ${rolloutText(rule.rollout)}`)

const ruleText = (rule: Rule): string =>
  `${rule.conditions.length === 0 ? "everyone" : `if ${rule.conditions.map(itemText).join(" and ")}`}, ${servesText(rule)}`

const ruleLabel = (rule: Rule, index: number): string => `Rule ${index + 1}${rule.name === undefined || rule.name === "" ? "" : ` '${rule.name}'`}`

/** Pairs of (before index, after index) for the rules present on both sides, in the after order. */
const matchRules = (before: ReadonlyArray<Rule>, after: ReadonlyArray<Rule>): ReadonlyArray<readonly [number, number]> => {
  const taken = new Set<number>()
  const find = (test: (b: Rule, i: number) => boolean): number => {
    const i = before.findIndex((b, i) => !taken.has(i) && test(b, i))
    if (i >= 0) taken.add(i)
    return i
  }
  const named = (r: Rule) => r.name !== undefined && r.name !== ""
  // By id first; then by name, then by position, among the rules no id has taken (-1, -2: to do).
  const found = after.map((a) => (a.id !== undefined ? find((b) => b.id === a.id) : named(a) ? -1 : -2))
  after.forEach((a, j) => {
    if (found[j] === -1) found[j] = find((b) => b.id === undefined && b.name === a.name)
  })
  after.forEach((a, j) => {
    if (found[j] === -2) found[j] = find((b, i) => b.id === undefined && !named(b) && i === j)
  })
  return found.flatMap((i, j) => (i >= 0 ? [[i, j] as const] : []))
}

/** The after indices of the matched rules that keep their relative order (a longest increasing run of before indices). */
const keptOrder = (pairs: ReadonlyArray<readonly [number, number]>): ReadonlySet<number> => {
  const n = pairs.length
  const length = pairs.map(() => 1)
  const previous = pairs.map(() => -1)
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      if (pairs[j]![0] < pairs[i]![0] && length[j]! + 1 > length[i]!) {
        length[i] = length[j]! + 1
        previous[i] = j
      }
    }
  }
  const kept = new Set<number>()
  let at = length.indexOf(Math.max(0, ...length))
  while (at >= 0) {
    kept.add(pairs[at]![1])
    at = previous[at]!
  }
  return kept
}

/** The conditions' changes: removed texts followed by added ones pair up as "was → is". */
const conditionChanges = (before: ReadonlyArray<ConditionItem>, after: ReadonlyArray<ConditionItem>): ReadonlyArray<ChangeLine> => {
  if (before.length === 0 && after.length === 0) return []
  const lines = diffLines(before.map(itemText).join("\n"), after.map(itemText).join("\n")).filter((l) => l.text !== "" || l.kind === "same")
  const out: Array<ChangeLine> = []
  let removed: Array<string> = []
  let added: Array<string> = []
  const flush = () => {
    const paired = Math.min(removed.length, added.length)
    for (let i = 0; i < paired; i++) out.push({ kind: "changed", text: `${removed[i]} → ${added[i]}` })
    for (const r of removed.slice(paired)) out.push({ kind: "removed", text: `condition removed: ${r}` })
    for (const a of added.slice(paired)) out.push({ kind: "added", text: `condition added: ${a}` })
    removed = []
    added = []
  }
  for (const l of lines) {
    if (l.kind === "same") flush()
    else if (l.kind === "removed") {
      if (added.length > 0) flush()
      removed.push(l.text)
    } else added.push(l.text)
  }
  flush()
  return out
}

/** What changed in what a rule serves: a variation, a rollout's shares, how it buckets. */
const servingChanges = (before: Rule, after: Rule): ReadonlyArray<ChangeLine> => {
  const b = before.rollout
  const a = after.rollout
  if (b === undefined || a === undefined) {
    return servesText(before) === servesText(after) ? [] : [{ kind: "changed", text: `${servesText(before)} → ${servesText(after)}` }]
  }
  const out: Array<ChangeLine> = []
  const weights = (r: typeof a) => new Map(r.variations.map((v) => [v.variationKey, v.weight]))
  const wb = weights(b)
  const wa = weights(a)
  for (const key of [...new Set([...wb.keys(), ...wa.keys()])]) {
    const was = wb.get(key) ?? 0
    const is = wa.get(key) ?? 0
    if (was !== is) out.push({ kind: "changed", text: `rollout ${key} ${percentOf(was)}% → ${percentOf(is)}%` })
  }
  if ((b.bucketBy ?? "key") !== (a.bucketBy ?? "key")) out.push({ kind: "changed", text: `rollout buckets by ${b.bucketBy ?? "key"} → by ${a.bucketBy ?? "key"}` })
  if ((b.seed ?? "") !== (a.seed ?? "")) out.push({ kind: "changed", text: `rollout seed ${b.seed ?? "(none)"} → ${a.seed ?? "(none)"} (everyone is bucketed anew)` })
  return out
}

const ruleChanges = (before: ReadonlyArray<Rule>, after: ReadonlyArray<Rule>): ReadonlyArray<ChangeLine> => {
  const pairs = matchRules(before, after)
  const kept = keptOrder(pairs)
  const matchedBefore = new Set(pairs.map(([i]) => i))
  const matchedAfter = new Map(pairs.map(([i, j]) => [j, i]))
  const out: Array<ChangeLine> = []
  before.forEach((rule, i) => {
    if (!matchedBefore.has(i)) out.push({ kind: "removed", text: `${ruleLabel(rule, i)} removed (was: ${ruleText(rule)})` })
  })
  after.forEach((rule, j) => {
    const i = matchedAfter.get(j)
    const label = ruleLabel(rule, j)
    if (i === undefined) {
      out.push({ kind: "added", text: `${label} added: ${ruleText(rule)}` })
      return
    }
    const was = before[i]!
    if (!kept.has(j)) out.push({ kind: "changed", text: `${label} moved from position ${i + 1} to ${j + 1}` })
    if ((was.name ?? "") !== (rule.name ?? "")) out.push({ kind: "changed", text: `${label}: name '${was.name ?? ""}' → '${rule.name ?? ""}'` })
    for (const c of [...conditionChanges(was.conditions, rule.conditions), ...servingChanges(was, rule)]) out.push({ kind: c.kind, text: `${label}: ${c.text}` })
  })
  return out
}

const prerequisiteChanges = (before: ReadonlyArray<Prerequisite>, after: ReadonlyArray<Prerequisite>): ReadonlyArray<ChangeLine> => {
  const was = new Map(before.map((p) => [p.flagKey, p.variationKey]))
  const is = new Map(after.map((p) => [p.flagKey, p.variationKey]))
  const out: Array<ChangeLine> = []
  for (const [flag, variation] of was) {
    if (!is.has(flag)) out.push({ kind: "removed", text: `Prerequisite removed: ${flag} serves ${variation}` })
    else if (is.get(flag) !== variation) out.push({ kind: "changed", text: `Prerequisite ${flag}: serves ${variation} → serves ${is.get(flag)}` })
  }
  for (const [flag, variation] of is) if (!was.has(flag)) out.push({ kind: "added", text: `Prerequisite added: ${flag} serves ${variation}` })
  return out
}

/**
 * The change from `before` to `after`, one line per thing changed, in the order the page shows
 * them: on/off, default and off variations, prerequisites, then the rules. `before` null: the
 * targeting is new (a change request made before the environment had it), so all of it is listed.
 */
export const targetingChanges = (before: ChangeTargeting | null, after: ChangeTargeting): ReadonlyArray<ChangeLine> => {
  if (before === null) {
    return [
      { kind: "added", text: `New targeting: ${after.enabled ? "on" : "off"}, default variation ${after.defaultVariationKey}, off variation ${after.offVariationKey}` },
      ...prerequisiteChanges([], after.prerequisites ?? []),
      ...ruleChanges([], after.rules)
    ]
  }
  const out: Array<ChangeLine> = []
  if (before.enabled !== after.enabled) out.push({ kind: "changed", text: after.enabled ? "Turned on (was off)" : "Turned off (was on)" })
  if (before.defaultVariationKey !== after.defaultVariationKey) out.push({ kind: "changed", text: `Default variation: ${before.defaultVariationKey} → ${after.defaultVariationKey}` })
  if (before.offVariationKey !== after.offVariationKey) out.push({ kind: "changed", text: `Off variation: ${before.offVariationKey} → ${after.offVariationKey}` })
  return [...out, ...prerequisiteChanges(before.prerequisites ?? [], after.prerequisites ?? []), ...ruleChanges(before.rules, after.rules)]
}
