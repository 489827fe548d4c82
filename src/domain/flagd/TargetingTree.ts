/**
 * A flag's `targeting` as a tree of tests (Formula.ts). What flagd's targeting returns names the
 * variant: a string, or a number or boolean by its text (`true` serves the variant "true"); `null`
 * serves the default variant. An `if` chain tests its conditions in order; a `fractional` is a
 * rollout. A targeting that computes its variant (`{"var": ...}`, `cat`, ...) or returns a
 * condition's value has no Flagport equivalent: a rule serves a variation it names.
 */
import { isVar } from "./Attribute.js"
import { conditionFormula } from "./Conditions.js"
import { branch, type Budget, leaf, type Tree } from "./Formula.js"
import { type FlagScope, fractionalOutcome } from "./Fractional.js"
import { refuse, type Path, show } from "./Refusal.js"

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const ifTree = (args: unknown, path: Path, scope: FlagScope, budget: Budget): Tree => {
  if (!Array.isArray(args)) return refuse(path, `"if" expects a list, got ${show(args)}`)
  if (args.length === 0) return leaf({ kind: "serve", variationKey: scope.defaultVariant })
  // [test1, value1, test2, value2, ..., otherwise]; without the last value, otherwise is null.
  let tree = args.length % 2 === 1
    ? outcomeTree(args[args.length - 1], [...path, args.length - 1], scope, budget)
    : leaf({ kind: "serve", variationKey: scope.defaultVariant })
  for (let i = (args.length % 2 === 1 ? args.length - 1 : args.length) - 2; i >= 0; i -= 2) {
    const then = outcomeTree(args[i + 1], [...path, i + 1], scope, budget)
    tree = branch(conditionFormula(args[i], [...path, i]), then, tree, budget)
  }
  return tree
}

/** The tree of what `expression`, in a place whose value names the variant, serves. */
export const outcomeTree = (expression: unknown, path: Path, scope: FlagScope, budget: Budget): Tree => {
  if (expression === null || typeof expression === "string" || typeof expression === "number" || typeof expression === "boolean") {
    return leaf({ kind: "serve", variationKey: scope.variantOf(expression, path) })
  }
  if (isRecord(expression) && Object.keys(expression).length === 1) {
    if ("if" in expression) return ifTree(expression.if, [...path, "if"], scope, budget)
    if ("fractional" in expression) return leaf(fractionalOutcome(expression.fractional, [...path, "fractional"], scope))
  }
  if (isVar(expression)) return refuse(path, `the targeting returns an attribute's value as the variant name; a Flagport rule serves a variation it names`)
  return refuse(path, `the targeting returns ${show(expression)}, computed at evaluation time; a Flagport rule serves a variation it names (write an "if" whose branches name variants)`)
}
