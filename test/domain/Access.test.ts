/**
 * Who may do what (Access.ts) as a table: every kind of caller against every kind of requirement,
 * the table of operations' rows read back through the roles table, and a bound key's reach.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Option } from "effect"
import { authorizeCaller, authorizeOperation, authorizeReach, OPERATOR_ONLY } from "../../src/domain/auth/Access.js"
import { PeopleMessages } from "../../src/domain/auth/PeopleMessages.js"
import type { Principal } from "../../src/domain/auth/ApiKey.js"
import { type Caller, operator, type PersonPrincipal } from "../../src/domain/auth/Caller.js"
import { type Operation, OPERATIONS, type Requirement } from "../../src/domain/auth/Permissions.js"
import * as Policy from "../../src/domain/auth/Policy.js"
import { GRANTS, type Permission, type Role } from "../../src/domain/people/Grants.js"

const person = (admin: boolean, memberships: PersonPrincipal["memberships"] = []): PersonPrincipal => ({
  _tag: "Person",
  userId: "u1",
  email: "edna@example.com",
  admin,
  memberships
})
const member = (role: Role) => person(false, [{ projectId: "p1", role }, { projectId: "p3", role: "admin" }])

const CALLERS: Record<string, Caller> = {
  viewer: member("viewer"),
  editor: member("editor"),
  projectAdmin: member("admin"),
  globalAdmin: person(true),
  nobody: person(false),
  globalKey: { _tag: "GlobalServer", keyId: "k" },
  projectKey: { _tag: "ProjectServer", keyId: "k", projectId: "p1", environment: null },
  otherProjectKey: { _tag: "ProjectServer", keyId: "k", projectId: "p2", environment: null },
  clientKey: { _tag: "Client", keyId: "k", projectId: "p1", environment: null } satisfies Principal,
  operator
}

const inP = (permission: Permission): Requirement => ({ _tag: "Project", permission })
const ok = (visible: ReadonlyArray<string> | null) => ({ ok: visible })
const notFound = (projectId: string) => ({ status: 404, message: `Project '${projectId}' not found` })
const forbidden = (message: string) => ({ status: 403, message })
type Outcome = ReturnType<typeof ok> | ReturnType<typeof notFound>

const outcome = (caller: Caller, requirement: Requirement, projectId?: string): Outcome =>
  Either.match(authorizeCaller(caller, requirement, projectId), {
    onRight: ok,
    onLeft: (error) => ({ status: error._tag === "ResourceNotFound" ? 404 : 403, message: error.message })
  })

const ROLE = forbidden(PeopleMessages.roleForbids)
const ADMIN = forbidden(PeopleMessages.adminRequired)

// [caller, requirement, project of the route, expected]
const CASES: ReadonlyArray<readonly [string, Requirement, string | undefined, Outcome]> = [
  ["viewer", inP("read"), "p1", ok(["p1"])],
  ["viewer", inP("write"), "p1", ROLE],
  ["viewer", inP("propose"), "p1", ROLE],
  ["viewer", inP("approve"), "p1", ROLE],
  ["viewer", inP("manage"), "p1", ROLE],
  ["viewer", inP("read"), "p2", notFound("p2")],
  ["viewer", inP("write"), "p2", notFound("p2")],
  ["viewer", inP("read"), "missing", notFound("missing")],
  ["editor", inP("read"), "p1", ok(["p1"])],
  ["editor", inP("write"), "p1", ok(["p1"])],
  ["editor", inP("propose"), "p1", ok(["p1"])],
  ["editor", inP("approve"), "p1", ROLE],
  ["editor", inP("manage"), "p1", ROLE],
  ["editor", inP("manage"), "p3", ok(["p3"])],
  ["editor", inP("read"), "p2", notFound("p2")],
  ["projectAdmin", inP("manage"), "p1", ok(["p1"])],
  ["projectAdmin", inP("approve"), "p1", ok(["p1"])],
  ["projectAdmin", inP("manage"), "p2", notFound("p2")],
  ["projectAdmin", { _tag: "GlobalAdmin" }, undefined, ADMIN],
  ["projectAdmin", { _tag: "ListProjects" }, undefined, ok(["p1", "p3"])],
  ["viewer", { _tag: "ListProjects" }, undefined, ok(["p1", "p3"])],
  ["nobody", { _tag: "ListProjects" }, undefined, ok([])],
  ["nobody", inP("read"), "p1", notFound("p1")],
  ["nobody", { _tag: "GlobalAdmin" }, undefined, ADMIN],
  ["globalAdmin", inP("manage"), "p2", ok(null)],
  ["globalAdmin", inP("read"), "missing", ok(null)],
  ["globalAdmin", { _tag: "GlobalAdmin" }, undefined, ok(null)],
  ["globalAdmin", { _tag: "ListProjects" }, undefined, ok(null)],
  // Keys keep the key policy: a role does not apply to them.
  ["globalKey", inP("manage"), "p1", ok(null)],
  ["globalKey", { _tag: "GlobalAdmin" }, undefined, ok(null)],
  ["projectKey", inP("manage"), "p1", ok(["p1"])],
  ["projectKey", { _tag: "ListProjects" }, undefined, ok(["p1"])],
  ["projectKey", { _tag: "GlobalAdmin" }, undefined, forbidden(Policy.Messages.projectMismatch)],
  ["otherProjectKey", inP("read"), "p1", forbidden(Policy.Messages.projectMismatch)],
  ["clientKey", inP("read"), "p1", forbidden(Policy.Messages.serverKeyRequired)],
  ["clientKey", { _tag: "ListProjects" }, undefined, forbidden(Policy.Messages.serverKeyRequired)],
  // The operator (the CLI, an Effect host) may do everything.
  ["operator", inP("manage"), "missing", ok(null)],
  ["operator", { _tag: "GlobalAdmin" }, undefined, ok(null)],
  ["operator", { _tag: "Operator" }, undefined, ok(null)]
]

describe("Access.authorizeCaller", () => {
  it.each(CASES)("%s, %j in %s", (caller, requirement, projectId, expected) => {
    expect(outcome(CALLERS[caller]!, requirement, projectId)).toEqual(expected)
  })

  it("a member's 404 for another project is the very answer for a project that does not exist", () => {
    expect(outcome(CALLERS.viewer!, inP("read"), "p2")).toEqual(notFound("p2"))
  })
})

describe("the table of operations", () => {
  // Who may take each row, read from the roles table: the docs' roles table, checked row by row.
  const expectations: ReadonlyArray<readonly [Operation, ReadonlyArray<Role | "globalAdmin">]> = [
    ["Flags.list", ["viewer", "editor", "admin", "globalAdmin"]],
    ["Flags.replaceTargeting", ["editor", "admin", "globalAdmin"]],
    ["Segments.create", ["editor", "admin", "globalAdmin"]],
    ["Schedules.create", ["editor", "admin", "globalAdmin"]],
    ["Audit.list", ["viewer", "editor", "admin", "globalAdmin"]],
    ["Schedules.listPending", ["viewer", "editor", "admin", "globalAdmin"]],
    ["ChangeRequests.open", ["editor", "admin", "globalAdmin"]],
    ["ChangeRequests.approve", ["admin", "globalAdmin"]],
    ["Environments.create", ["admin", "globalAdmin"]],
    ["Webhooks.list", ["admin", "globalAdmin"]],
    ["ApiKeys.create", ["admin", "globalAdmin"]],
    ["Members.list", ["admin", "globalAdmin"]],
    ["Members.put", ["admin", "globalAdmin"]],
    ["Projects.create", ["globalAdmin"]],
    ["Users.list", ["globalAdmin"]],
    ["Users.resetPassword", ["globalAdmin"]],
    ["Users.unlock", ["globalAdmin"]],
    ["ApiKeys.createGlobal", []]
  ]
  it.each(expectations)("%s: %j", (operation, allowed) => {
    const mayTake = (["viewer", "editor", "admin", "globalAdmin"] as const).filter((who) => {
      const caller = who === "globalAdmin" ? person(true) : person(false, [{ projectId: "p1", role: who }])
      return Either.isRight(authorizeOperation(caller, operation, "p1", []))
    })
    expect(mayTake).toEqual(allowed)
  })

  it("every project row names a permission some role grants, and every permission reaches the admin role", () => {
    for (const rule of Object.values(OPERATIONS)) {
      if (rule.needs._tag === "Project") expect(GRANTS.admin).toContain(rule.needs.permission)
    }
  })

  it("the operator may do everything, global keys included; nobody else may make a global key", () => {
    for (const operation of Object.keys(OPERATIONS) as ReadonlyArray<Operation>) {
      expect(authorizeOperation(operator, operation, "p1", ["production"])).toEqual(Either.right({ visible: null, seen: null }))
    }
    expect(outcome(CALLERS.globalKey!, { _tag: "Operator" })).toEqual(forbidden(OPERATOR_ONLY))
    expect(outcome(CALLERS.globalAdmin!, { _tag: "Operator" })).toEqual(forbidden(OPERATOR_ONLY))
  })
})

describe("an operation's reach, for a key bound to production", () => {
  const bound: Caller = { _tag: "ProjectServer", keyId: "k", projectId: "p1", environment: "production" }
  const refusal = (operation: Operation, environments?: ReadonlyArray<string | null>) =>
    Either.match(authorizeOperation(bound, operation, "p1", environments), { onLeft: (error) => error.message, onRight: (decision) => decision })

  it.each([
    ["Flags.replaceTargeting", ["production"], { visible: ["p1"], seen: "production" }],
    ["Flags.replaceTargeting", ["development"], Policy.Messages.environmentMismatch],
    // A copy names its target and its source: both must be the key's.
    ["EnvironmentCopy.copy", ["production", "development"], Policy.Messages.environmentMismatch],
    // A manifest naming no environment reaches every one.
    ["FlagsAsCode.manifest", [null], Policy.Messages.environmentMismatch],
    ["FlagsAsCode.manifest", ["production"], { visible: ["p1"], seen: "production" }],
    ["Flags.create", [], Policy.Messages.boundKeyWritesEveryEnvironment("production")],
    ["Webhooks.list", [], Policy.Messages.environmentMismatch],
    ["ApiKeys.create", [null], Policy.Messages.keyWiderThanCaller],
    ["ApiKeys.create", ["production"], { visible: ["p1"], seen: "production" }],
    ["ApiKeys.revokeInProject", ["development"], Policy.Messages.revokeWiderThanCaller],
    // Narrowed answers, not refusals.
    ["Flags.list", [], { visible: ["p1"], seen: "production" }],
    ["Audit.list", [], { visible: ["p1"], seen: "production" }],
    // What only people may do: no key, whatever its reach.
    ["ChangeRequests.approve", ["production"], PeopleMessages.keyApproves],
    ["Members.put", [], PeopleMessages.keyChangesMembers]
  ] as const)("%s over %j", (operation, environments, expected) => {
    expect(refusal(operation, environments)).toEqual(expected)
  })

  it("an environment known only once its record is read is decided then", () => {
    expect(refusal("Schedules.cancel")).toEqual({ visible: ["p1"], seen: "production" })
    expect(Either.getLeft(authorizeReach(bound, "environment", ["development"])).pipe(Option.map((e) => e.message))).toEqual(
      Option.some(Policy.Messages.environmentMismatch)
    )
  })
})
