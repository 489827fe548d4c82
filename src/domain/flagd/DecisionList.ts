/**
 * A targeting tree (Formula.ts) as Flagport's ordered rules and default variation.
 *
 * Each subtree is written as rules that together match every context reaching it (its last rule
 * has exactly the conditions of the path to it), so what follows only sees contexts the subtree
 * did not. A test whose atom flagd holds false for an absent attribute writes its `then` branch
 * under the condition, then its `else` branch; one that flagd holds true for an absent attribute
 * writes its `else` branch under the negated condition first, then its `then` branch: the
 * contexts left over (the attribute absent, or the condition holding) are exactly those where
 * flagd takes `then`. (Under a condition on the same attribute, the attribute is present, and
 * the first order serves.) A rollout is followed by a rule serving what flagd serves when it cannot
 * bucket the context, since a Flagport rollout without a bucketing value falls through; not when
 * the path already holds a string operator on the bucketing attribute (flagd's `headerColor`:
 * `email` `contains` `@faas.com`, then a rollout by `email`). Such a condition holds for a string,
 * which always buckets, or for a list with a matching element, where flagd compares the list
 * whole and the import is not exact anyway (coming-from-flagd.md): the rule would repeat the
 * rollout's conditions under another variation for those lists alone, which reads as a mistake.
 *
 * The list is then made short: rules that can never match (a condition and its negation) and
 * rules that a later rule with fewer conditions serves the same way go, and the last catch-all
 * becomes the default variation. Last, adjacent rules serving the same variation become one rule
 * with an `anyOf` group (Alternatives.ts), so an `or` reads as one rule.
 */
import type { Condition, RuleInput } from "../definitions/Targeting.js"
import { joinAlternatives } from "./Alternatives.js"
import type { Tree } from "./Formula.js"
import { refuse, type Path } from "./Refusal.js"

/** Rules written before pruning; a tree past it is refused (its pruned list would be too long anyway). */
const MAX_WRITTEN = 5000

const conditionId = (c: Condition): string => JSON.stringify([c.attribute, c.operator, c.values])
const negate = (c: Condition): Condition => ({ ...c, negate: !(c.negate ?? false) })

interface Draft {
  readonly conditions: ReadonlyArray<Condition>
  readonly rule: Omit<RuleInput, "conditions">
}

/** Operators that hold only for a string (or a list with a matching element: Operators.ts). */
const STRING_ONLY: ReadonlySet<string> = new Set(["contains", "startsWith", "endsWith", "matches"])

/** Whether every context meeting `conditions` has a string to bucket `bucketBy` by (lists aside). */
const alwaysBuckets = (bucketBy: string, conditions: ReadonlyArray<Condition>): boolean =>
  conditions.some((c) => c.attribute === bucketBy && !(c.negate ?? false) && STRING_ONLY.has(c.operator))

const write = (tree: Tree, conditions: ReadonlyArray<Condition>, out: Array<Draft>, path: Path): void => {
  if (out.length > MAX_WRITTEN) refuse(path, `the targeting expands to more than ${MAX_WRITTEN} rules; split it into simpler flags`)
  if (tree.kind === "test") {
    const c = tree.atom.condition
    // Every Flagport condition needs its attribute present: under one on the same attribute, absence is out.
    const known = conditions.some((other) => other.attribute === c.attribute)
    if (!tree.atom.absent || known) {
      write(tree.then, [...conditions, c], out, path)
      write(tree.else, conditions, out, path)
    } else {
      write(tree.else, [...conditions, negate(c)], out, path)
      write(tree.then, conditions, out, path)
    }
    return
  }
  const outcome = tree.outcome
  if (outcome.kind === "serve") {
    out.push({ conditions, rule: { variationKey: outcome.variationKey } })
    return
  }
  out.push({ conditions: [...conditions, ...outcome.conditions], rule: { rollout: outcome.rollout } })
  if (!alwaysBuckets(outcome.rollout.bucketBy ?? "key", conditions)) out.push({ conditions, rule: { variationKey: outcome.otherwise } })
}

/** The conditions without repeats, or null when two contradict (the rule can never match). */
const simplify = (conditions: ReadonlyArray<Condition>): ReadonlyArray<Condition> | null => {
  const byId = new Map<string, Condition>()
  for (const c of conditions) {
    const id = conditionId(c)
    const seen = byId.get(id)
    if (seen === undefined) byId.set(id, c)
    else if ((seen.negate ?? false) !== (c.negate ?? false)) return null
  }
  return [...byId.values()]
}

const subset = (small: ReadonlyArray<Condition>, large: ReadonlyArray<Condition>): boolean => {
  const ids = new Set(large.map((c) => conditionId(c) + String(c.negate ?? false)))
  return small.every((c) => ids.has(conditionId(c) + String(c.negate ?? false)))
}

const sameServe = (a: Draft, b: Draft): boolean => a.rule.variationKey !== undefined && a.rule.variationKey === b.rule.variationKey

export interface RuleList {
  readonly rules: ReadonlyArray<RuleInput>
  readonly defaultVariationKey: string
}

export const decisionList = (tree: Tree, path: Path): RuleList => {
  const written: Array<Draft> = []
  write(tree, [], written, path)
  const drafts: Array<Draft> = []
  for (const d of written) {
    const conditions = simplify(d.conditions)
    if (conditions !== null) drafts.push({ conditions, rule: d.rule })
  }
  // The last rule written has the root's conditions (none) and serves a variation: the default.
  const last = drafts.pop()!
  const defaultVariationKey = last.rule.variationKey!
  let changed = true
  while (changed) {
    changed = false
    const tail = drafts[drafts.length - 1]
    if (tail !== undefined && tail.rule.variationKey === defaultVariationKey) {
      drafts.pop()
      changed = true
      continue
    }
    for (let i = 0; i + 1 < drafts.length; i++) {
      if (sameServe(drafts[i]!, drafts[i + 1]!) && subset(drafts[i + 1]!.conditions, drafts[i]!.conditions)) {
        drafts.splice(i, 1)
        changed = true
        break
      }
    }
  }
  return { rules: joinAlternatives(drafts.map((d) => ({ conditions: d.conditions, ...d.rule }))), defaultVariationKey }
}
