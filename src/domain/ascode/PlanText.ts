/**
 * The plan as people read it (what `flagport apply` prints): one line per change, `+` created,
 * `~` changed (with a diff of the item in the file's YAML), `-` deleted, and the count; `=` the
 * author's pending change requests that already propose the rest (PendingProposals.ts); then the
 * plan's fingerprint, which `apply --plan` takes to apply exactly this plan.
 */
import { yamlText } from "./FileText.js"
import { diffLines, withContext } from "./LineDiff.js"
import type { PendingRequest } from "./Plan.js"
import type { ShownChange, ShownPlan } from "./Plan.js"

const SIGN = { create: "+", update: "~", delete: "-" } as const

const yamlLines = (value: unknown): Array<string> =>
  value === null || value === undefined ? [] : yamlText(value).replace(/\n$/, "").split("\n")

const title = (change: ShownChange): string => {
  const what = change.resource === "targeting"
    ? `targeting of flag ${change.key} in ${change.environment}`
    : change.resource === "release_plan"
    ? `release plan of flag ${change.key} in ${change.environment}${change.releasePlanId === undefined ? " (a new draft)" : ` (draft ${change.releasePlanId})`}`
    : `${change.resource} ${change.key}`
  const proposed = change.changeRequest !== true
    ? ""
    : change.changeRequestId === undefined
    ? " (protected: proposed as a new change request)"
    : ` (protected: updates your change request ${change.changeRequestId})`
  return `${SIGN[change.action]} ${what}${proposed}`
}

const body = (change: ShownChange): Array<string> => {
  const lines = diffLines(yamlLines(change.before), yamlLines(change.after))
  const shown = change.action === "update" ? withContext(lines) : lines
  return shown.map((line) => (line === "..." ? "      ..." : `    ${line.op} ${line.text}`))
}

/** Counts of a plan: created, changed, deleted. */
export const summary = (plan: ShownPlan): { readonly create: number; readonly update: number; readonly delete: number } => ({
  create: plan.changes.filter((c) => c.action === "create").length,
  update: plan.changes.filter((c) => c.action === "update").length,
  delete: plan.changes.filter((c) => c.action === "delete").length
})

/** The author's pending requests that already propose the rest of the file: one line each. */
const pendingLines = (pending: ReadonlyArray<PendingRequest>): Array<string> =>
  pending.map((r) => `= targeting of ${r.flagKeys.join(", ")} in ${r.environment}: already proposed in your change request ${r.id}, awaiting approval`)

export const planText = (plan: ShownPlan): string => {
  const pending = pendingLines(plan.pendingChangeRequests ?? [])
  if (plan.changes.length === 0 && pending.length === 0) return `Project ${plan.projectId}: no changes; it is as the file says.\n`
  if (plan.changes.length === 0) return [`Project ${plan.projectId}: no changes; the rest awaits approval.`, "", ...pending, ""].join("\n")
  const counts = summary(plan)
  const lines = plan.changes.flatMap((change) => [title(change), ...body(change)])
  return [
    `Project ${plan.projectId}: ${counts.create} to create, ${counts.update} to change, ${counts.delete} to delete.`,
    "",
    ...lines,
    ...pending,
    ...(plan.fingerprint === undefined ? [] : ["", `Plan ${plan.fingerprint}: apply --plan ${plan.fingerprint} applies this plan and nothing else.`]),
    ""
  ].join("\n")
}
