/**
 * How `flagport change-requests` shows a request in a terminal: KEY=value lines a script can read,
 * then, for a person deciding on it, what each change does to its flag (the fields that differ,
 * before and after), the release plans it starts or resumes (each as pinned) and the segments it pins. The JSON of `--json` is the API's answer instead.
 */
import type { Actor } from "../../src/domain/audit/Actor.js"
import type { Change, ChangeRequest, ShownTargeting } from "../../src/domain/changes/ChangeRequest.js"
import type { PlanChange } from "../../src/domain/changes/PlanChange.js"
import { canonicalJson } from "../../src/domain/JsonRecord.js"

/** An actor as one word: a person's email, a key's name or id, `cli`, `schedule`. */
export const actorText = (actor: Actor): string => {
  const who = actor.email ?? actor.keyName ?? (actor.keyId === undefined ? undefined : `key ${actor.keyId}`)
  if (actor.type === "schedule") return who === undefined ? "schedule" : `schedule (${who})`
  return who ?? actor.type
}

/** `1/2`: the approvals that count now over the environment's number. */
export const approvalsText = (request: ChangeRequest): string => `${request.countingApprovals}/${request.requiredApprovals}`

/** The lines of `show`, `approve`, `reject` and `apply`: one KEY=value each. */
export const requestLines = (request: ChangeRequest): Array<string> => [
  `CHANGE_REQUEST=${request.id}`,
  `TITLE=${request.title}`,
  `STATUS=${request.status}`,
  `ENVIRONMENT=${request.environment}`,
  `AUTHOR=${actorText(request.author)}`,
  `APPROVALS=${approvalsText(request)}`,
  `APPROVED_BY=${request.approvals.map((a) => (a.counts ? actorText(a.by) : `${actorText(a.by)}(${a.notCountingReason})`)).join(" ") || "-"}`,
  `FLAGS=${request.changes.map((change) => change.flagKey).join(" ")}`,
  ...(request.releasePlans.length === 0 ? [] : [`RELEASE_PLANS=${request.releasePlans.map((p) => `${p.action}:${p.flagKey}/${p.planId}`).join(" ")}`]),
  `APPLY_AT=${request.applyAt ?? "-"}`,
  `APPLIED=${request.appliedAt === null ? "-" : `${request.appliedAt} by ${request.appliedBy === null ? "-" : actorText(request.appliedBy)}`}`,
  ...(request.rejection === null ? [] : [`REJECTED=${request.rejection.at} by ${actorText(request.rejection.by)}: ${request.rejection.comment ?? ""}`]),
  ...(request.failure === null ? [] : [`FAILURE=${request.failure}`])
]

const FIELDS: ReadonlyArray<keyof ShownTargeting> = ["enabled", "defaultVariationKey", "offVariationKey", "prerequisites", "rules"]

const valueOf = (targeting: ShownTargeting | null, field: keyof ShownTargeting): string =>
  targeting === null ? "(none)" : JSON.stringify(targeting[field] ?? (field === "prerequisites" ? [] : null))

/** One change as a diff of the fields it changes: `- field: before` and `+ field: after`. */
const changeText = (change: Change): Array<string> => {
  const same = (field: keyof ShownTargeting) =>
    change.before !== null && canonicalJson(change.before[field] ?? []) === canonicalJson(change.after[field] ?? [])
  const differing = FIELDS.filter((field) => !same(field))
  return [
    `${change.flagKey} (based on version ${change.baseVersion})`,
    ...(differing.length === 0
      ? ["  (no difference)"]
      : differing.flatMap((field) => [`  - ${field}: ${valueOf(change.before, field)}`, `  + ${field}: ${valueOf(change.after, field)}`]))
  ]
}

/** A weight in thousandths of a percent, as a percentage: 2500 is `2.5%`. */
const percent = (weight: number): string => `${weight / 1000}%`

/** One plan as the request pinned it: what applying does, its steps, its guardrails. */
export const planChangeText = ({ action, baseVersion, flagKey, plan, planId }: PlanChange): Array<string> => [
  `${action === "start" ? "Start" : "Resume"} release plan ${planId} of ${flagKey} (based on version ${baseVersion})`,
  `  ramps ${plan.variationKey} on rule ${plan.ruleId}: ${plan.steps.map((step) => `${percent(step.weight)} for ${step.holdMinutes} min`).join(", then ")}`,
  `  guardrails: ${plan.guardrails.length === 0 ? "none" : plan.guardrails.map((metric) => metric.key).join(", ")}; on harm: ${plan.onHarm}; alpha ${plan.alpha}`,
  ...(plan.harm === null ? [] : [`  harmed at ${plan.harm.at} (${plan.harm.action === "rolledBack" ? "rolled back" : "paused"} at ${percent(plan.harm.weight)})`])
]

/** What `show` prints below the lines: each change's diff, the description and the pinned segments. */
export const requestDetail = (request: ChangeRequest): Array<string> => [
  "",
  ...(request.description === null ? [] : [request.description, ""]),
  ...request.changes.flatMap(changeText),
  ...request.releasePlans.flatMap(planChangeText),
  ...(request.segments.length === 0
    ? []
    : ["", "Segments, as pinned:", ...request.segments.map((s) => `  ${s.key}: ${JSON.stringify(s.conditions)} (updated ${s.updatedAt})`)])
]
