/**
 * What a release plan must satisfy, as one table of rules: each row looks at one aspect of the
 * plan (and of the flag it ramps) and names every problem it finds with its path in the body. A
 * create, a patch and a start all ask the same table, so a plan is never judged by two rule sets.
 */
import type { Flag } from "../definitions/Flag.js"
import { TOTAL_WEIGHT } from "../definitions/RolloutWeight.js"
import type { Rule } from "../definitions/Targeting.js"
import type { Problem } from "../Errors.js"
import { MAX_GUARDRAILS, MAX_HOLD_MINUTES, MAX_STEPS, MIN_HOLD_MINUTES, type ReleasePlan } from "./ReleasePlan.js"

/** The parts of a plan the rules read. */
export type PlanShape = Pick<ReleasePlan, "environment" | "ruleId" | "variationKey" | "steps" | "guardrails" | "alpha" | "flagKey">

/**
 * The parts of a flag the rules read: a stored flag, or the flag a project file will make
 * (domain/ascode/FileReleasePlans.ts), whose rules are those with an id.
 */
export interface PlanFlag {
  readonly variations: ReadonlyArray<Pick<Flag["variations"][number], "key">>
  readonly configs: ReadonlyArray<{ readonly environmentKey: string; readonly rules: ReadonlyArray<Rule> }>
}

interface PlanRule {
  /** What the row checks, for the tests' table and for readers. */
  readonly name: string
  readonly problems: (plan: PlanShape, flag: PlanFlag) => ReadonlyArray<Problem>
}

/** The rule the plan ramps in its environment's targeting, if the flag has it. */
export const ruleOf = (plan: Pick<ReleasePlan, "environment" | "ruleId">, flag: PlanFlag): Rule | undefined =>
  flag.configs.find((config) => config.environmentKey === plan.environment)?.rules.find((rule) => rule.id === plan.ruleId)

/** What the rule serves, as weighted slices: a rule serving one variation is that variation at 100%. */
export const slicesOf = (rule: Pick<Rule, "rollout" | "variationKey">): ReadonlyArray<{ readonly variationKey: string; readonly weight: number }> =>
  rule.rollout !== undefined ? rule.rollout.variations : rule.variationKey !== undefined ? [{ variationKey: rule.variationKey, weight: TOTAL_WEIGHT }] : []

const each = <A>(items: ReadonlyArray<A>, f: (item: A, i: number) => ReadonlyArray<Problem>): ReadonlyArray<Problem> => items.flatMap(f)

export const PLAN_RULES: ReadonlyArray<PlanRule> = [
  {
    name: "between one and the most steps",
    problems: (plan) =>
      plan.steps.length === 0
        ? [{ path: "steps", message: "must have at least one step" }]
        : plan.steps.length > MAX_STEPS
          ? [{ path: "steps", message: `must have at most ${MAX_STEPS} steps` }]
          : []
  },
  {
    name: "each weight a whole number from 1 to 100000",
    problems: (plan) =>
      each(plan.steps, (step, i) =>
        Number.isInteger(step.weight) && step.weight >= 1 && step.weight <= TOTAL_WEIGHT
          ? []
          : [{ path: `steps[${i}].weight`, message: `must be a whole number from 1 to ${TOTAL_WEIGHT} (thousandths of a percent)` }])
  },
  {
    name: "weights rising",
    problems: (plan) =>
      each(plan.steps, (step, i) => {
        const previous = plan.steps[i - 1]
        return previous === undefined || step.weight > previous.weight
          ? []
          : [{ path: `steps[${i}].weight`, message: `must be greater than the previous step's weight (${previous.weight})` }]
      })
  },
  {
    name: "each hold within bounds",
    problems: (plan) =>
      each(plan.steps, (step, i) =>
        Number.isFinite(step.holdMinutes) && step.holdMinutes >= MIN_HOLD_MINUTES && step.holdMinutes <= MAX_HOLD_MINUTES
          ? []
          : [{ path: `steps[${i}].holdMinutes`, message: `must be a number of minutes from ${MIN_HOLD_MINUTES} to ${MAX_HOLD_MINUTES}` }])
  },
  {
    name: "at most the most guardrails, each key once",
    problems: (plan) => {
      if (plan.guardrails.length > MAX_GUARDRAILS) return [{ path: "guardrails", message: `must have at most ${MAX_GUARDRAILS} metrics` }]
      const seen = new Set<string>()
      return each(plan.guardrails, (metric, i) => {
        if (!seen.has(metric.key)) {
          seen.add(metric.key)
          return []
        }
        return [{ path: `guardrails[${i}].key`, message: `'${metric.key}' is already the key of another guardrail` }]
      })
    }
  },
  {
    name: "alpha in (0, 0.5]",
    problems: (plan) => (plan.alpha > 0 && plan.alpha <= 0.5 ? [] : [{ path: "alpha", message: "must be greater than 0 and at most 0.5" }])
  },
  {
    name: "the environment is one of the flag's",
    problems: (plan, flag) =>
      flag.configs.some((config) => config.environmentKey === plan.environment)
        ? []
        : [{ path: "environment", message: `flag '${plan.flagKey}' has no environment '${plan.environment}'` }]
  },
  {
    name: "the variation is one of the flag's",
    problems: (plan, flag) =>
      flag.variations.some((variation) => variation.key === plan.variationKey)
        ? []
        : [{ path: "variationKey", message: `flag '${plan.flagKey}' has no variation '${plan.variationKey}'` }]
  },
  {
    name: "the rule exists and serves some other variation (the plan's control)",
    problems: (plan, flag) => {
      if (!flag.configs.some((config) => config.environmentKey === plan.environment)) return []
      const rule = ruleOf(plan, flag)
      if (rule === undefined) {
        return [{ path: "ruleId", message: `flag '${plan.flagKey}' has no rule '${plan.ruleId}' in environment '${plan.environment}'` }]
      }
      return slicesOf(rule).some((slice) => slice.variationKey !== plan.variationKey && slice.weight > 0)
        ? []
        : [{ path: "ruleId", message: `rule '${plan.ruleId}' serves no variation but '${plan.variationKey}'; a plan ramps up from the variations a rule serves now` }]
    }
  }
]

/** Every problem of the plan against the flag, in the table's order. */
export const planProblems = (plan: PlanShape, flag: PlanFlag): ReadonlyArray<Problem> => PLAN_RULES.flatMap((rule) => rule.problems(plan, flag))
