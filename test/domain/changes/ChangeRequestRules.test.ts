/**
 * Who may do what to a change request, in which status (domain/changes/ChangeRequestRules.ts), as
 * a table: action x role x author/approver x status -> allowed, 403 or 409 with the message.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { PeopleMessages } from "../../../src/domain/auth/PeopleMessages.js"
import type { ChangeRequestStatus } from "../../../src/domain/changes/ChangeRequest.js"
import { type ChangeRequestAction, ChangeRequestMessages as M, decide, statusWith, underRequiredApprovals } from "../../../src/domain/changes/ChangeRequestRules.js"
import type { Role } from "../../../src/domain/people/Role.js"

type Who = "author" | "approver" | "other"
const ok = "ok" as const
const f403 = (message: string) => ({ status: 403, message })
const f409 = (message: string) => ({ status: 409, message })

// action, role, who, status, expected
const TABLE: ReadonlyArray<readonly [ChangeRequestAction, Role | null, Who, ChangeRequestStatus, typeof ok | { status: number; message: string }]> = [
  // open: editors and admins
  ["open", "viewer", "other", "open", f403(PeopleMessages.roleForbids)],
  ["open", null, "other", "open", f403(PeopleMessages.roleForbids)],
  ["open", "editor", "other", "open", ok],
  ["open", "admin", "other", "open", ok],
  // update: the author, while open or approved
  ["update", "editor", "author", "open", ok],
  ["update", "editor", "author", "approved", ok],
  ["update", "editor", "other", "open", f403(M.authorOnly)],
  ["update", "admin", "other", "open", f403(M.authorOnly)],
  ["update", "viewer", "author", "open", f403(PeopleMessages.roleForbids)],
  ["update", "editor", "author", "applied", f409(M.closed("applied"))],
  ["update", "editor", "author", "rejected", f409(M.closed("rejected"))],
  ["update", "editor", "author", "cancelled", f409(M.closed("cancelled"))],
  // approve: admins (the roles table), never the author, once each
  ["approve", "admin", "other", "open", ok],
  ["approve", "admin", "other", "approved", ok],
  ["approve", "admin", "author", "open", f403(M.selfApproval)],
  ["approve", "admin", "approver", "open", f409(M.approvedTwice)],
  ["approve", "editor", "other", "open", f403(PeopleMessages.roleForbids)],
  ["approve", "viewer", "other", "open", f403(PeopleMessages.roleForbids)],
  ["approve", null, "other", "open", f403(PeopleMessages.roleForbids)],
  ["approve", "admin", "other", "applied", f409(M.closed("applied"))],
  ["approve", "admin", "other", "rejected", f409(M.closed("rejected"))],
  // reject: admins, not the author
  ["reject", "admin", "other", "open", ok],
  ["reject", "admin", "approver", "approved", ok],
  ["reject", "admin", "author", "open", f403(M.selfRejection)],
  ["reject", "editor", "other", "open", f403(PeopleMessages.roleForbids)],
  ["reject", "admin", "other", "cancelled", f409(M.closed("cancelled"))],
  // cancel: the author or an admin
  ["cancel", "editor", "author", "open", ok],
  ["cancel", "editor", "author", "approved", ok],
  ["cancel", "admin", "other", "open", ok],
  ["cancel", "editor", "other", "open", f403(M.cancelRefused)],
  ["cancel", "viewer", "other", "open", f403(M.cancelRefused)],
  ["cancel", "editor", "author", "applied", f409(M.closed("applied"))],
  // apply: the author or an approver, once approved
  ["apply", "editor", "author", "approved", ok],
  ["apply", "admin", "approver", "approved", ok],
  ["apply", "admin", "other", "approved", f403(M.applyRefused)],
  ["apply", "editor", "other", "approved", f403(M.applyRefused)],
  ["apply", "editor", "author", "open", f409(M.notApproved(0, 1))],
  ["apply", "editor", "author", "applied", f409(M.closed("applied"))],
  ["apply", "admin", "approver", "rejected", f409(M.closed("rejected"))],
  ["apply", "editor", "author", "cancelled", f409(M.closed("cancelled"))],
  // apply by someone whose role changed since: the author must still propose, an approver still approve
  ["apply", "viewer", "author", "approved", f403(M.applyRefused)],
  ["apply", null, "author", "approved", f403(M.applyRefused)],
  ["apply", "editor", "approver", "approved", f403(M.applyRefused)],
  ["apply", null, "approver", "approved", f403(M.applyRefused)]
]

describe("decide", () => {
  it.each(TABLE)("%s by %s (%s) when %s: %j", (action, role, who, status, expected) => {
    const decision = decide(action, {
      role,
      status,
      isAuthor: who === "author",
      hasApproved: who === "approver",
      approvals: status === "open" ? 0 : 1,
      requiredApprovals: 1
    })
    const outcome = Either.isRight(decision)
      ? ok
      : { status: decision.left._tag === "Forbidden" ? 403 : 409, message: decision.left.message }
    expect(outcome).toEqual(expected)
  })

  it("an apply counts the approvals that still stand: an approved request short of them is not applied, by anyone", () => {
    const stale = { status: "approved" as const, isAuthor: true, hasApproved: false, approvals: 1, requiredApprovals: 2 }
    for (const role of ["editor", "admin"] as const) {
      const decision = decide("apply", { ...stale, role })
      expect(Either.isLeft(decision) && decision.left.message).toBe(M.notApproved(1, 2))
    }
    expect(Either.isRight(decide("apply", { ...stale, role: "editor", approvals: 2 }))).toBe(true)
  })

  it("is approved once the approvals reach the environment's count", () => {
    expect([statusWith(0, 1), statusWith(1, 1), statusWith(1, 2), statusWith(2, 2), statusWith(3, 2)]).toEqual(["open", "approved", "open", "approved", "approved"])
    expect(M.notApproved(1, 2)).toBe("This change request needs 2 approvals before it is applied; it has 1")
    expect(M.selfApproval).toBe("You cannot approve your own change request")
  })
})

describe("a changed requiredApprovals", () => {
  const request = (status: ChangeRequestStatus, approvals: number, requiredApprovals: number) => ({ status, approvals: Array.from({ length: approvals }, () => ({})), requiredApprovals })
  const shown = (r: ReturnType<typeof request>) => `${r.status} ${r.approvals.length}/${r.requiredApprovals}`
  it.each([
    // live ones take the new number, counted again
    ["approved", 1, 1, 2, "open 1/2"],
    ["open", 1, 2, 1, "approved 1/1"],
    ["open", 0, 1, 3, "open 0/3"],
    ["approved", 3, 2, 3, "approved 3/3"],
    // closed ones keep the number they were decided under
    ["applied", 1, 1, 2, "applied 1/1"],
    ["rejected", 0, 1, 2, "rejected 0/1"],
    ["cancelled", 1, 2, 1, "cancelled 1/2"]
  ] as const)("%s with %i of %i, now %i required: %s", (status, approvals, required, now, expected) => {
    expect(shown(underRequiredApprovals(request(status, approvals, required), now))).toBe(expected)
  })
})
