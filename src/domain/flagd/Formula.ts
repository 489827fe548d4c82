/**
 * The translation's middle form. A flagd condition becomes a `Formula` over `Atom`s; an `if`
 * chain becomes a `Tree` of tests on atoms with what each branch serves at its leaves
 * (DecisionList.ts flattens the tree into Flagport's ordered rules).
 *
 * An atom is one Flagport condition plus what flagd answers when the attribute is absent. The two
 * engines agree on a present attribute of the type the operator compares (a string for string
 * operators, a number for numeric comparisons, a version string for `sem_ver`), but not on an
 * absent one: a Flagport condition on an absent attribute never matches, whatever `negate` says,
 * while flagd reads it as `null` (so `{"!": ...}` and `!=` hold, and `<` compares with 0). Keeping
 * flagd's answer for absence beside the condition lets DecisionList.ts order rules so that
 * absence lands exactly where flagd sends it.
 */
import type { Condition, Rollout } from "../definitions/Targeting.js"
import { refuse, type Path } from "./Refusal.js"

export interface Atom {
  readonly kind: "atom"
  /** Matches, on a present attribute, exactly when flagd's condition is truthy. */
  readonly condition: Condition
  /** flagd's truth when the attribute is absent (or null). */
  readonly absent: boolean
}

export type Formula =
  | Atom
  | { readonly kind: "const"; readonly value: boolean }
  | { readonly kind: "not"; readonly formula: Formula }
  | { readonly kind: "and"; readonly formulas: ReadonlyArray<Formula> }
  | { readonly kind: "or"; readonly formulas: ReadonlyArray<Formula> }

export const atom = (condition: Condition, absent: boolean): Atom => ({ kind: "atom", condition, absent })
export const constant = (value: boolean): Formula => ({ kind: "const", value })
export const not = (formula: Formula): Formula => ({ kind: "not", formula })
export const and = (formulas: ReadonlyArray<Formula>): Formula => ({ kind: "and", formulas })
export const or = (formulas: ReadonlyArray<Formula>): Formula => ({ kind: "or", formulas })

/** What a branch of the targeting serves. */
export type Outcome =
  | { readonly kind: "serve"; readonly variationKey: string }
  | {
    readonly kind: "rollout"
    readonly rollout: Rollout
    /** Extra conditions for the rollout to apply (the bucketing attribute must be a string). */
    readonly conditions: ReadonlyArray<Condition>
    /** What flagd serves when the rollout cannot bucket the context (no bucketing value). */
    readonly otherwise: string
  }

export type Tree =
  | { readonly kind: "leaf"; readonly outcome: Outcome }
  | { readonly kind: "test"; readonly atom: Atom; readonly then: Tree; readonly else: Tree }

export const leaf = (outcome: Outcome): Tree => ({ kind: "leaf", outcome })

/**
 * The most tests one flag's tree may hold. `and` and `or` copy a branch per operand (a tree has no
 * sharing), so a deep mix can grow fast; a flag beyond this is refused rather than turned into
 * more rules than Flagport takes (Limits.ts: rules per configuration).
 */
export const MAX_TESTS = 2000

/** A counter of the tests built for one flag; refuses at `MAX_TESTS`. */
export interface Budget {
  spent: number
  readonly path: Path
}

/**
 * The tree that serves `then` where `formula` is truthy and `otherwise` where it is not:
 * `not` swaps the branches, `and` / `or` short-circuit as JSONLogic does (an empty one is null,
 * which is falsy).
 */
export const branch = (formula: Formula, then: Tree, otherwise: Tree, budget: Budget): Tree => {
  switch (formula.kind) {
    case "const":
      return formula.value ? then : otherwise
    case "atom":
      if (++budget.spent > MAX_TESTS) {
        return refuse(budget.path, `the targeting expands to more than ${MAX_TESTS} tests; split it into simpler flags`)
      }
      return { kind: "test", atom: formula, then, else: otherwise }
    case "not":
      return branch(formula.formula, otherwise, then, budget)
    case "and":
      return formula.formulas.reduceRight<Tree | undefined>(
        (rest, f) => branch(f, rest ?? then, otherwise, budget),
        undefined
      ) ?? otherwise
    case "or":
      return formula.formulas.reduceRight<Tree | undefined>(
        (rest, f) => branch(f, then, rest ?? otherwise, budget),
        undefined
      ) ?? otherwise
  }
}
