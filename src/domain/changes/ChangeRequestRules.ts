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
 */
import * as Either from "effect/Either"
import { PeopleMessages } from "../auth/Access.js"
import { Forbidden, ResourceConflict } from "../Errors.js"
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
  notApproved: (approvals: number, required: number) =>
    `This change request needs ${required} approval${required === 1 ? "" : "s"} before it is applied; it has ${approvals}`
} as const

const forbidden = (message: string) => Either.left(new Forbidden({ message }))
const conflict = (message: string) => Either.left(new ResourceConflict({ message }))
const allows = (s: Situation, permission: "propose" | "approve") => s.role !== null && roleAllows(s.role, permission)
const live = (s: Situation) => s.status === "open" || s.status === "approved"

/** The decision for `action` in `situation`: 403 for who, 409 for when. */
export const decide = (action: ChangeRequestAction, s: Situation): Either.Either<void, Forbidden | ResourceConflict> => {
  switch (action) {
    case "open":
      return allows(s, "propose") ? Either.void : forbidden(PeopleMessages.roleForbids)
    case "update":
      if (!allows(s, "propose")) return forbidden(PeopleMessages.roleForbids)
      if (!s.isAuthor) return forbidden(ChangeRequestMessages.authorOnly)
      return live(s) ? Either.void : conflict(ChangeRequestMessages.closed(s.status))
    case "approve":
      if (!allows(s, "approve")) return forbidden(PeopleMessages.roleForbids)
      if (s.isAuthor) return forbidden(ChangeRequestMessages.selfApproval)
      if (!live(s)) return conflict(ChangeRequestMessages.closed(s.status))
      return s.hasApproved ? conflict(ChangeRequestMessages.approvedTwice) : Either.void
    case "reject":
      if (!allows(s, "approve")) return forbidden(PeopleMessages.roleForbids)
      if (s.isAuthor) return forbidden(ChangeRequestMessages.selfRejection)
      return live(s) ? Either.void : conflict(ChangeRequestMessages.closed(s.status))
    case "cancel":
      if (!s.isAuthor && s.role !== "admin") return forbidden(ChangeRequestMessages.cancelRefused)
      return live(s) ? Either.void : conflict(ChangeRequestMessages.closed(s.status))
    case "apply":
      // Until it is approved nobody may apply it, whoever asks.
      if (!live(s)) return conflict(ChangeRequestMessages.closed(s.status))
      // Counted now (an approval whose author may no longer approve does not count), whatever the status says.
      if (s.status !== "approved" || s.approvals < s.requiredApprovals) return conflict(ChangeRequestMessages.notApproved(s.approvals, s.requiredApprovals))
      // The author while they may still propose, an approver while they may still approve.
      return (s.isAuthor && allows(s, "propose")) || (s.hasApproved && allows(s, "approve")) ? Either.void : forbidden(ChangeRequestMessages.applyRefused)
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
