/**
 * What the dashboard offers whoever is signed in, decided by the domain's own tables: the controls
 * a role allows, where a change is proposed rather than saved, and what may be done to a change
 * request. Pure logic, no browser.
 */
import { describe, expect, it } from "vitest"
import { GRANTS, ROLES } from "../../src/domain/people/Grants.js"
import { passwordProblems, ssoRefusal } from "../../ui/lib/account.js"
import { SIGN_IN_REFUSALS } from "../../src/domain/people/SignInRefusal.js"
import { allows } from "../../ui/lib/roles.js"
import { type ChangeRequest, type Environment, type Me } from "../../ui/lib/types.js"
import { actionsOn, approvalsShort, isLive, notReadyWords, proposes } from "../../ui/lib/changes.js"
import { me, projectId, serverKey } from "../../ui/lib/session.js"

describe("people", () => {
  it("offers a control by the domain's roles table: a member by their role there, a global admin and a key everything", () => {
    const signedIn = (memberships: Me["memberships"], admin = false) =>
      ({ user: { id: "u1", email: "u1@example.com", name: "u1", admin }, memberships }) as unknown as Me
    const permissions = ["read", "write", "propose", "approve", "manage"] as const
    try {
      for (const role of ROLES) {
        me.value = signedIn([{ projectId: "p1", role }])
        for (const permission of permissions) {
          expect(allows(permission, "p1"), `${role} ${permission}`).toBe(GRANTS[role].includes(permission))
          expect(allows(permission, "p2"), `${role} ${permission} elsewhere`).toBe(false)
        }
      }
      me.value = signedIn([], true)
      expect(permissions.every((permission) => allows(permission, "p2"))).toBe(true)
      me.value = null
      serverKey.value = "fp_srv_test"
      expect(permissions.every((permission) => allows(permission, "p2"))).toBe(true)
    } finally {
      me.value = null
      serverKey.value = null
    }
  })

  it("shows single sign-on's reason only when it is one of the server's messages", () => {
    expect(ssoRefusal(`?error=${encodeURIComponent(SIGN_IN_REFUSALS.domainNotAllowed)}`)).toBe(SIGN_IN_REFUSALS.domainNotAllowed)
    expect(ssoRefusal("?error=Call+0800+now+to+keep+your+account")).toBe("Single sign-on did not sign you in. Please try again.")
    expect(ssoRefusal("")).toBeNull()
  })

  it("checks a new password's length and its confirmation before sending it", () => {
    expect(passwordProblems("correct horse", "correct horse")).toBeNull()
    expect(passwordProblems("short", "short")?.details).toEqual([{ path: "password", message: "must be at least 12 characters" }])
    expect(passwordProblems("correct horse", "correct hose")?.details).toEqual([{ path: "confirmation", message: "does not match the password" }])
    expect(passwordProblems("x".repeat(11), "x".repeat(12))?.details.map((d) => d.path)).toEqual(["password", "confirmation"])
    expect(passwordProblems("x".repeat(1025), "x".repeat(1025))?.details).toEqual([{ path: "password", message: "must be at most 1024 characters" }])
  })
})

describe("where a change is proposed rather than saved", () => {
  const environment = (isProtected: boolean): Environment => ({
    id: "e1",
    projectId: "p1",
    key: "production",
    name: "Production",
    clientConfig: "full",
    protected: isProtected,
    requiredApprovals: 1,
    createdAt: "2026-01-01T00:00:00Z"
  })

  const signedIn = (role: "viewer" | "editor"): Me =>
    ({ user: { id: "u1", email: "u1@example.com", name: "u1", admin: false }, memberships: [{ projectId: "p1", role }] }) as unknown as Me

  it("a person proposes in a protected environment and saves elsewhere; a key saves everywhere", () => {
    const kept = projectId.value
    projectId.value = "p1"
    me.value = signedIn("editor")
    try {
      expect(proposes(environment(true))).toBe(true)
      expect(proposes(environment(false))).toBe(false)
      expect(proposes(undefined)).toBe(false)
      me.value = null
      serverKey.value = "fp_srv_test"
      expect(proposes(environment(true))).toBe(false)
    } finally {
      me.value = null
      serverKey.value = null
      projectId.value = kept
    }
  })

  it("a viewer is never told a change would be proposed: they may neither save nor propose", () => {
    const kept = projectId.value
    projectId.value = "p1"
    me.value = signedIn("viewer")
    try {
      expect(proposes(environment(true))).toBe(false)
    } finally {
      me.value = null
      projectId.value = kept
    }
  })
})

describe("what the change requests page offers", () => {
  const person = (id: string, role: "viewer" | "editor" | "admin"): Me =>
    ({ user: { id, email: `${id}@example.com`, name: id, admin: false }, memberships: [{ projectId: "p1", role }] }) as unknown as Me
  /** A request approved by `approvedBy`; those in `notCounting` were demoted since. */
  const request = (status: ChangeRequest["status"], approvedBy: ReadonlyArray<string> = [], notCounting: ReadonlyArray<string> = [], requiredApprovals = 1): ChangeRequest =>
    ({
      id: "cr1",
      projectId: "p1",
      environment: "production",
      segments: [],
      releasePlans: [],
      title: "t",
      description: null,
      status,
      author: { type: "user", userId: "eddie" },
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-01T00:00:00Z",
      changes: [],
      approvals: approvedBy.map((id) => {
        const counts = !notCounting.includes(id)
        return { by: { type: "user", userId: id }, at: "2026-01-01T00:00:00Z", comment: null, counts, notCountingReason: counts ? null : "demoted" }
      }),
      countingApprovals: approvedBy.filter((id) => !notCounting.includes(id)).length,
      requiredApprovals,
      applyAt: null,
      rejection: null,
      appliedAt: null,
      appliedBy: null,
      failure: null
    }) as ChangeRequest
  const as = (who: Me | null, r: ChangeRequest) => {
    me.value = who
    try {
      return actionsOn(r)
    } finally {
      me.value = null
    }
  }
  const none = { approve: false, reject: false, cancel: false, apply: false, update: false }

  it("the author (an editor) may update and cancel an open request, apply an approved one, never approve or reject it", () => {
    expect(as(person("eddie", "editor"), request("open"))).toEqual({ ...none, cancel: true, update: true })
    expect(as(person("eddie", "editor"), request("approved", ["ada"]))).toEqual({ ...none, cancel: true, update: true, apply: true })
  })

  it("a project admin approves once, rejects, cancels, and applies what they approved", () => {
    expect(as(person("ada", "admin"), request("open"))).toEqual({ ...none, approve: true, reject: true, cancel: true })
    expect(as(person("ada", "admin"), request("approved", ["ada"]))).toEqual({ ...none, reject: true, cancel: true, apply: true })
  })

  it("another editor and a viewer only read; a closed request offers nothing", () => {
    expect(as(person("erin", "editor"), request("open"))).toEqual(none)
    expect(as(person("eddie", "viewer"), request("approved", ["ada"]))).toEqual(none)
    for (const status of ["applied", "rejected", "cancelled"] as const) {
      expect(isLive(request(status))).toBe(false)
      expect(as(person("ada", "admin"), request(status, ["ada"]))).toEqual(none)
    }
  })

  it("an approved request whose counting approvals fall short is not ready: no apply offered, its shortfall in words", () => {
    const short = request("approved", ["ada", "bo"], ["bo"], 2)
    expect(approvalsShort(short)).toBe(1)
    expect(notReadyWords(short)).toBe("approved, but 1 of 2 approvals no longer counts: needs 1 more")
    expect(notReadyWords(request("approved", ["ada", "bo"], ["ada", "bo"], 2))).toBe("approved, but 2 of 2 approvals no longer count: needs 2 more")
    expect(as(person("eddie", "editor"), short)).toEqual({ ...none, cancel: true, update: true })
    expect(as(person("ada", "admin"), short)).toEqual({ ...none, reject: true, cancel: true })
    // Every approval counting, or an open request: nothing short.
    expect(approvalsShort(request("approved", ["ada", "bo"], [], 2))).toBe(0)
    expect(approvalsShort(request("open", ["ada"], ["ada"], 2))).toBe(0)
    expect(as(person("eddie", "editor"), request("approved", ["ada", "bo"], [], 2))).toEqual({ ...none, cancel: true, update: true, apply: true })
    // A demoted approver (now an editor) is not offered the apply of a request approved enough by others.
    expect(as(person("bo", "editor"), request("approved", ["ada", "bo"], ["bo"], 1))).toEqual(none)
    serverKey.value = "fp_srv_test"
    try {
      expect(as(null, short).apply).toBe(false)
    } finally {
      serverKey.value = null
    }
  })

  it("a key is offered what the status allows but an approval (approvals are people's), and the API judges it", () => {
    serverKey.value = "fp_srv_test"
    try {
      expect(as(null, request("approved", ["ada"]))).toEqual({ approve: false, reject: true, cancel: true, apply: true, update: true })
    } finally {
      serverKey.value = null
    }
  })
})
