/**
 * Who may do what to a change request, and in which status (docs/guide/change-requests.md, "The rules"):
 * one pure, total decision read by the use cases (so HTTP, the CLI and an Effect host are judged
 * alike). The HTTP route table (auth/Permissions.ts) already refuses a role without the route's
 * permission; this table also knows the author, the approvers and the status.
 *
 * | action  | who                                              | status            |
 * |---------|--------------------------------------------------|-------------------|
 * | open    | `propose` (editor, admin)                        | -                 |
 * | update  | the author (`propose`)                           | open, approved    |
 * | approve | `approve` (admin), not the author, once each     | open, approved    |
 * | reject  | `approve` (admin), not the author                | open, approved    |
 * | cancel  | the author, or a project admin                   | open, approved    |
 * | apply   | the author (`propose`) or an approver (`approve`) | approved, counted |
 *
 * Keys and the operator (CLI, an Effect host) act as a project admin would.
 *
 * Pure and total, importing only plain modules, so the dashboard bundles it as it is (no Effect in
 * the browser) to offer only the actions that can work; ChangeRequestRules.ts turns a refusal into
 * the use cases' errors.
 */
import { PeopleMessages } from "../auth/PeopleMessages.js"
import { type Role, roleAllows } from "../people/Grants.js"
import type { ChangeRequestStatus } from "./ChangeRequest.js"

export type ChangeRequestAction = "open" | "update" | "approve" | "reject" | "cancel" | "apply"

export interface Situation {
  /** The actor's role in the project (`admin` for a global admin, a key, the operator); null: none. */
  readonly role: Role | null
  readonly status: ChangeRequestStatus
  readonly isAuthor: boolean
  /** The actor already approved this request. */
  readonly hasApproved: boolean
  /** The approvals that count: for `apply`, only those whose authors may still approve (ApprovalStanding.ts). */
  readonly approvals: number
  readonly requiredApprovals: number
}

export const ChangeRequestMessages = {
  selfApproval: "You cannot approve your own change request",
  selfRejection: "You cannot reject your own change request; cancel it instead",
  approvedTwice: "You have already approved this change request",
  authorOnly: "Only the author can update this change request",
  cancelRefused: "Only the author or a project admin can cancel this change request",
  applyRefused: "Only the author or an approver can apply this change request",
  closed: (status: ChangeRequestStatus) => `This change request is ${status}; it can no longer change`,
  movedOn: (flagKeys: ReadonlyArray<string>) =>
    `Flag${flagKeys.length === 1 ? "" : "s"} ${flagKeys.map((k) => `'${k}'`).join(", ")} changed since this change request was made; nothing was applied, and its author can update it`,
  segmentsMovedOn: (segmentKeys: ReadonlyArray<string>) =>
    `Segment${segmentKeys.length === 1 ? "" : "s"} ${segmentKeys.map((k) => `'${k}'`).join(", ")} changed since this change request was made; nothing was applied, and its author can update it`,
  plansMovedOn: (planIds: ReadonlyArray<string>) =>
    `Release plan${planIds.length === 1 ? "" : "s"} ${planIds.map((k) => `'${k}'`).join(", ")} changed since this change request was made; nothing was applied, and its author can update it`,
  nothingProposed: "must name at least one flag's targeting (changes) or one release plan (releasePlans)",
  notApproved: (approvals: number, required: number) =>
    `This change request needs ${required} approval${required === 1 ? "" : "s"} before it is applied; it has ${approvals}`
} as const

/** A refusal: 403 (who) or 409 (when), with the contract's message. */
export interface Refusal {
  readonly status: 403 | 409
  readonly message: string
}

const forbidden = (message: string): Refusal => ({ status: 403, message })
const conflict = (message: string): Refusal => ({ status: 409, message })
const allows = (s: Situation, permission: "propose" | "approve") => s.role !== null && roleAllows(s.role, permission)
const live = (s: Situation) => s.status === "open" || s.status === "approved"

/** Why `action` is refused in `situation`: 403 for who, 409 for when; undefined: allowed. */
export const refusalOf = (action: ChangeRequestAction, s: Situation): Refusal | undefined => {
  switch (action) {
    case "open":
      return allows(s, "propose") ? undefined : forbidden(PeopleMessages.roleForbids)
    case "update":
      if (!allows(s, "propose")) return forbidden(PeopleMessages.roleForbids)
      if (!s.isAuthor) return forbidden(ChangeRequestMessages.authorOnly)
      return live(s) ? undefined : conflict(ChangeRequestMessages.closed(s.status))
    case "approve":
      if (!allows(s, "approve")) return forbidden(PeopleMessages.roleForbids)
      if (s.isAuthor) return forbidden(ChangeRequestMessages.selfApproval)
      if (!live(s)) return conflict(ChangeRequestMessages.closed(s.status))
      return s.hasApproved ? conflict(ChangeRequestMessages.approvedTwice) : undefined
    case "reject":
      if (!allows(s, "approve")) return forbidden(PeopleMessages.roleForbids)
      if (s.isAuthor) return forbidden(ChangeRequestMessages.selfRejection)
      return live(s) ? undefined : conflict(ChangeRequestMessages.closed(s.status))
    case "cancel":
      if (!s.isAuthor && s.role !== "admin") return forbidden(ChangeRequestMessages.cancelRefused)
      return live(s) ? undefined : conflict(ChangeRequestMessages.closed(s.status))
    case "apply":
      // Until it is approved nobody may apply it, whoever asks.
      if (!live(s)) return conflict(ChangeRequestMessages.closed(s.status))
      // Counted now (an approval whose author may no longer approve does not count), whatever the status says.
      if (s.status !== "approved" || s.approvals < s.requiredApprovals) return conflict(ChangeRequestMessages.notApproved(s.approvals, s.requiredApprovals))
      // The author while they may still propose, an approver while they may still approve.
      return (s.isAuthor && allows(s, "propose")) || (s.hasApproved && allows(s, "approve")) ? undefined : forbidden(ChangeRequestMessages.applyRefused)
  }
}

/** The status once the approvals are counted: `approved` when they reach the required number. */
export const statusWith = (approvals: number, requiredApprovals: number): ChangeRequestStatus =>
  approvals >= requiredApprovals ? "approved" : "open"

/**
 * A request once its environment's `requiredApprovals` changed: a live one (open, approved) takes
 * the new number at once and its status is counted again (an approved one short of it is open
 * again, so neither a person nor the scheduler applies it on the old count); a closed one is history
 * and keeps the number it was decided under.
 */
export const underRequiredApprovals = <R extends { readonly status: ChangeRequestStatus; readonly approvals: ReadonlyArray<unknown>; readonly requiredApprovals: number }>(
  request: R,
  requiredApprovals: number
): R =>
  request.status === "open" || request.status === "approved"
    ? { ...request, requiredApprovals, status: statusWith(request.approvals.length, requiredApprovals) }
    : request
