/**
 * The API's refusals in people's words. The API names fields by their JSON path
 * (`rules[0].rollout.variations`) and says some things in its own units (weights out of 100,000,
 * versions named by `If-Match`); the dashboard shows the same refusal as the person saw the form:
 * "Rule 1, rollout shares", "the shares must total 100% (they total 90%)". The meaning is kept:
 * only the words change, and an unknown path or message is shown as the API gave it.
 */
import { percentOf, TOTAL_WEIGHT } from "./format.js"

/** The fields' names as the forms label them. */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  rules: "rules",
  conditions: "conditions",
  anyOf: "options",
  values: "values",
  variations: "variations",
  prerequisites: "prerequisites",
  changes: "changes",
  rollout: "rollout",
  weight: "share",
  bucketBy: "bucket by",
  seed: "seed",
  attribute: "attribute",
  operator: "operator",
  negate: "negate",
  variationKey: "variation",
  defaultVariationKey: "Default variation",
  offVariationKey: "Off variation",
  enabled: "On/off",
  flagKey: "flag",
  targeting: "targeting",
  environment: "Environment",
  name: "Name",
  description: "Description",
  key: "Key",
  type: "Type",
  value: "value",
  url: "URL",
  events: "events",
  secret: "Signing secret",
  title: "Title",
  comment: "Comment",
  applyAt: "Apply at",
  at: "Apply at",
  email: "Email",
  password: "Password",
  role: "Role",
  from: "From",
  to: "To",
  flags: "flags",
  ruleId: "Rule",
  controlVariationKey: "Control variation",
  hypothesis: "Hypothesis",
  metrics: "metrics",
  event: "event",
  kind: "kind",
  goal: "goal",
  windowHours: "window (hours)",
  analysis: "Analysis",
  method: "method",
  alpha: "alpha",
  cuped: "CUPED",
  preWindowDays: "days before exposure for CUPED",
  plannedUnits: "planned units",
  decision: "Decision",
  note: "why",
  steps: "steps",
  holdMinutes: "hold (minutes)",
  guardrails: "guardrails",
  onHarm: "On harm"
}

/** One item of a list, followed by its place from 1 ("rules[0]" is "Rule 1"). */
const ITEM_WORDS: Readonly<Record<string, string>> = {
  rules: "rule",
  conditions: "condition",
  anyOf: "option",
  values: "value",
  variations: "variation",
  prerequisites: "prerequisite",
  changes: "change",
  events: "event",
  flags: "flag",
  metrics: "metric",
  steps: "step",
  guardrails: "guardrail"
}

/**
 * A problem's path as the form reads it: `rules[0].conditions[1].values[2]` is "Rule 1, condition 2,
 * value 3"; `rules[0].rollout.variations` is "Rule 1, rollout shares"; a place in an "any of these"
 * block, `conditions[1].anyOf[0][2]`, is "condition 2, option 1, condition 3"; an empty path (the
 * request as a whole) is "".
 */
export const fieldWords = (path: string): string => {
  if (path === "") return ""
  const parts: Array<string> = []
  const steps = path.split(".")
  steps.forEach((step, i) => {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(step)
    if (m === null) {
      parts.push(step)
      return
    }
    const [, name = "", indexes = ""] = m
    const places = [...indexes.matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]) + 1)
    const inRollout = steps[i - 1] === "rollout" && name === "variations"
    const word = inRollout ? (places.length === 0 ? "shares" : "share") : places.length === 0 ? (FIELD_WORDS[name] ?? name) : (ITEM_WORDS[name] ?? FIELD_WORDS[name] ?? name)
    const named = places.length === 0 ? word : `${word} ${places[0]}`
    // "rollout" then "shares" read together: "rollout shares"
    if (inRollout) parts.push(`${parts.pop() ?? "rollout"} ${named}`)
    else if (name !== "") parts.push(named)
    // an option's conditions: `anyOf[0][2]` is option 1, condition 3
    const inner = name === "anyOf" ? "condition" : "item"
    for (const place of places.slice(name === "" ? 0 : 1)) parts.push(`${inner} ${place}`)
  })
  const text = parts.join(", ")
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** The API's messages that speak its own units, each with the words a person reads instead. */
const MESSAGE_WORDS: ReadonlyArray<readonly [RegExp, (...groups: ReadonlyArray<string>) => string]> = [
  [
    new RegExp(`^weights must sum to ${TOTAL_WEIGHT} \\(got (\\d+)\\)$`),
    (got) => `the shares must total 100% (they total ${percentOf(Number(got))}%)`
  ],
  [/^The targeting of flag '([^']+)' in '([^']+)' is at version (\d+), not the version named by If-Match$/, (_flag, env, version) => `Its targeting in ${env} is now at version ${version}.`],
  [/^Flag '([^']+)' is at version (\d+), not the version named by If-Match$/, (_flag, version) => `It is now at version ${version}.`]
]

/** A message of the API in people's words (as it is when no rewording is known). */
export const messageWords = (message: string): string => {
  for (const [pattern, words] of MESSAGE_WORDS) {
    const m = pattern.exec(message)
    if (m !== null) return words(...m.slice(1))
  }
  return message
}
