/**
 * Change requests (contract-people.md, "Protected environments and change requests"): in a
 * protected environment a person's change to targeting is proposed, approved by someone else, then
 * applied. Server keys keep writing directly (the API lets them), so a page proposes only for a
 * person: the domain's own rule decides (src/domain/changes/ProtectionRule.ts, pure: no Effect
 * reaches the bundle). What may be done to a request is the domain's too: the table of operations
 * (auth/Permissions.ts) and the change requests' rules table (changes/ChangeRequestRuleTable.ts),
 * read to offer only the buttons that can work; the API decides in the end and the page shows its
 * refusal.
 */
import { signal } from "@preact/signals"
import { type Operation, ruleOf } from "../../src/domain/auth/Permissions.js"
import { type ChangeRequestAction, refusalOf, type Situation } from "../../src/domain/changes/ChangeRequestRuleTable.js"
import { needsChangeRequest, type Writer } from "../../src/domain/changes/ProtectionRule.js"
import { projectPath, request, seg } from "./api.js"
import { fromUtcInput } from "./format.js"
import { allows, roleIn } from "./roles.js"
import { me, serverKey } from "./session.js"
import type { Actor, ChangeRequest, ChangeTargeting, Environment, List, NotCountingReason } from "./types.js"

/** Who saves from this tab, as the protection rule sees it: a server key, or the signed-in person. */
const writer = (): Writer => (serverKey.value !== null ? { type: "key" } : { type: "user" })

/**
 * Whether a change to `environment` is proposed rather than saved: a direct save there would need
 * an approved change request. Never for someone who may not change targeting at all (a viewer):
 * they neither save nor propose, so no page tells them their switch would propose.
 */
export const proposes = (environment: Environment | undefined): boolean =>
  environment !== undefined && allows("write") && needsChangeRequest(writer(), { key: environment.key, protected: environment.protected })

/** Still waiting for something: approvals (`open`) or an apply (`approved`). */
export const isLive = (r: ChangeRequest): boolean => r.status === "open" || r.status === "approved"

/**
 * How many more approvals that count an approved request needs before it can be applied: more than
 * none once an approver was demoted, removed or disabled since (the API judges `counts` by the
 * apply's own rule; the status stays `approved`).
 */
export const approvalsShort = (r: ChangeRequest): number => (r.status === "approved" ? Math.max(0, r.requiredApprovals - r.countingApprovals) : 0)

/** Why an approval no longer counts, as people read it. */
export const NOT_COUNTING_WORDS: { readonly [R in NotCountingReason]: string } = {
  demoted: "approver no longer an admin of this project",
  removed: "approver no longer a member of this project",
  disabled: "approver's account disabled",
  revoked: "the key that approved it was revoked",
  key: "given with a key: approvals are people's"
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`

/** An approved request that is not ready, in words: "approved, but 1 of 2 approvals no longer counts: needs 1 more". */
export const notReadyWords = (r: ChangeRequest): string => {
  const lost = r.approvals.length - r.countingApprovals
  return `approved, but ${lost} of ${plural(r.approvals.length, "approval")} no longer count${lost === 1 ? "s" : ""}: needs ${approvalsShort(r)} more`
}

/** The number the navigation shows beside "Change requests": the project's live ones (null: not read yet). */
export const liveCount = signal<number | null>(null)

/** Reads the project's change requests again for the navigation's count (a refusal leaves no count). */
export const countLive = async (projectId: string | null): Promise<void> => {
  if (projectId === null) {
    liveCount.value = null
    return
  }
  try {
    const list = await request<List<ChangeRequest>>("GET", projectPath(projectId, "/change-requests"))
    liveCount.value = list.data.filter(isLive).length
  } catch {
    liveCount.value = null
  }
}

/** A flag's configuration as a change carries it: the targeting PUT's body without `environment`. */
export const changeTargeting = (config: ChangeTargeting): ChangeTargeting => ({
  enabled: config.enabled,
  defaultVariationKey: config.defaultVariationKey,
  offVariationKey: config.offVariationKey,
  ...(config.prerequisites === undefined ? {} : { prerequisites: config.prerequisites }),
  rules: config.rules
})

/** One flag's proposed targeting in a change request. */
export interface ProposedChange {
  readonly flagKey: string
  readonly targeting: ChangeTargeting
}

/**
 * Opens a change request for `changes` (one to 50 flags) in `environment`; the navigation's count
 * follows. `applyAt`: a UTC `datetime-local` value, or "" to leave the apply to a person.
 */
export const proposeChanges = async (
  projectId: string,
  proposal: {
    readonly title: string
    readonly description: string
    readonly environment: string
    readonly changes: ReadonlyArray<ProposedChange>
    readonly applyAt?: string
  }
): Promise<ChangeRequest> => {
  const created = await request<ChangeRequest>("POST", projectPath(projectId, "/change-requests"), {
    title: proposal.title,
    ...(proposal.description.trim() === "" ? {} : { description: proposal.description }),
    ...(proposal.applyAt === undefined || proposal.applyAt === "" ? {} : { applyAt: fromUtcInput(proposal.applyAt) }),
    environment: proposal.environment,
    changes: proposal.changes
  })
  void countLive(projectId)
  return created
}

/** Opens a change request for one flag in `environment` (`proposeChanges`). */
export const propose = (
  projectId: string,
  proposal: {
    readonly title: string
    readonly description: string
    readonly environment: string
    readonly flagKey: string
    readonly targeting: ChangeTargeting
    readonly applyAt?: string
  }
): Promise<ChangeRequest> => {
  const { flagKey, targeting, ...rest } = proposal
  return proposeChanges(projectId, { ...rest, changes: [{ flagKey, targeting }] })
}

/**
 * Opens a change request that starts or resumes one release plan (a person's start, or resume after
 * harm, in a protected environment needs one); the navigation's count follows.
 */
export const proposePlan = async (
  projectId: string,
  proposal: { readonly environment: string; readonly flagKey: string; readonly planId: string; readonly action: "start" | "resume" }
): Promise<ChangeRequest> => {
  const { environment, flagKey, planId, action } = proposal
  const created = await request<ChangeRequest>("POST", projectPath(projectId, "/change-requests"), {
    title: `${action === "start" ? "Start" : "Resume"} the release plan of ${flagKey} in ${environment}`,
    environment,
    releasePlans: [{ flagKey, planId, action }]
  })
  void countLive(projectId)
  return created
}

/** `/v1/projects/{p}/change-requests/{id}` plus the rest. */
export const requestPath = (projectId: string, id: string, rest = ""): string => projectPath(projectId, `/change-requests/${seg(id)}${rest}`)

/** Whether `actor` is the signed-in person. */
const isMe = (actor: Actor): boolean => me.value !== null && actor.type === "user" && actor.userId === me.value.user.id

/** The operation of each action on a request, as the table of operations names it. */
const OPERATION_OF: { readonly [A in Exclude<ChangeRequestAction, "open">]: Operation } = {
  update: "ChangeRequests.update",
  approve: "ChangeRequests.approve",
  reject: "ChangeRequests.reject",
  cancel: "ChangeRequests.cancel",
  apply: "ChangeRequests.apply"
}

/**
 * Whether to offer `action` on `r`: the operation's permission (the table of operations), then the rules
 * table with the signed-in person's role, authorship and approval, and the approvals the API
 * counted when it answered (an approval whose approver was demoted since does not count). A key is
 * judged by the API alone: it is offered what the status and the counted approvals allow to
 * someone acting as a project admin, as the author or not, except what only people may do (approve).
 */
const offers = (action: Exclude<ChangeRequestAction, "open">, r: ChangeRequest): boolean => {
  const rule = ruleOf(OPERATION_OF[action])
  // What only people may do (an approval) is never offered to a key.
  if (rule.peopleOnly !== undefined && serverKey.value !== null) return false
  const requirement = rule.needs
  if (requirement._tag !== "Project" || !allows(requirement.permission, r.projectId)) return false
  const situation: Situation = {
    role: serverKey.value !== null ? "admin" : roleIn(r.projectId),
    status: r.status,
    isAuthor: isMe(r.author),
    hasApproved: r.approvals.some((a) => isMe(a.by)),
    approvals: r.countingApprovals,
    requiredApprovals: r.requiredApprovals
  }
  if (serverKey.value === null) return refusalOf(action, situation) === undefined
  return [true, false].some((isAuthor) => refusalOf(action, { ...situation, isAuthor, hasApproved: false }) === undefined)
}

/** What the signed-in person (or key) may do to `r` now. */
export const actionsOn = (r: ChangeRequest) => ({
  approve: offers("approve", r),
  reject: offers("reject", r),
  cancel: offers("cancel", r),
  // Not offered while the approvals that count fall short: the apply would answer 409.
  apply: offers("apply", r),
  update: offers("update", r)
})

/**
 * The author's edit of a request's words and time (`PUT` without `changes`: they stay exactly as
 * they were). An empty description or time is sent as null: no description, applied by hand.
 */
export const editRequest = (
  projectId: string,
  id: string,
  edit: { readonly title: string; readonly description: string; readonly applyAt: string }
): Promise<ChangeRequest> =>
  request<ChangeRequest>("PUT", requestPath(projectId, id), {
    title: edit.title,
    description: edit.description.trim() === "" ? null : edit.description,
    applyAt: edit.applyAt === "" ? null : fromUtcInput(edit.applyAt)
  })
