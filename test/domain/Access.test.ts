/**
 * The decisions of the management routes (Access.ts) as a table: every kind of caller against
 * every kind of requirement, and the route table's rows read back through the roles table.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { authorizeCaller } from "../../src/domain/auth/Access.js"
import { PeopleMessages } from "../../src/domain/auth/PeopleMessages.js"
import type { Principal } from "../../src/domain/auth/ApiKey.js"
import type { Caller, PersonPrincipal } from "../../src/domain/auth/Caller.js"
import { type Requirement, requirementOf, ROUTE_REQUIREMENTS, routeKey } from "../../src/domain/auth/Permissions.js"
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
  clientKey: { _tag: "Client", keyId: "k", projectId: "p1", environment: null } satisfies Principal
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
  ["clientKey", { _tag: "ListProjects" }, undefined, forbidden(Policy.Messages.serverKeyRequired)]
]

describe("Access.authorizeCaller", () => {
  it.each(CASES)("%s, %j in %s", (caller, requirement, projectId, expected) => {
    expect(outcome(CALLERS[caller]!, requirement, projectId)).toEqual(expected)
  })

  it("a member's 404 for another project is the very answer for a project that does not exist", () => {
    expect(outcome(CALLERS.viewer!, inP("read"), "p2")).toEqual(notFound("p2"))
  })
})

describe("the route table", () => {
  it("answers by method and template, with either parameter syntax", () => {
    expect(routeKey("get", "/v1/projects/:projectId/flags/:flagKey")).toBe("GET /v1/projects/{projectId}/flags/{flagKey}")
    expect(requirementOf("GET", "/v1/projects/:projectId/flags")).toEqual(inP("read"))
    expect(requirementOf("PUT", "/v1/projects/{projectId}/flags/{flagKey}/targeting")).toEqual(inP("write"))
    expect(requirementOf("GET", "/v1/nowhere")).toBeUndefined()
    expect(requirementOf("GET", "/toString")).toBeUndefined()
  })

  // Who may take each row, read from the roles table: the docs' roles table, checked row by row.
  const expectations: ReadonlyArray<readonly [string, ReadonlyArray<Role | "globalAdmin">]> = [
    ["GET /v1/projects/{projectId}/flags", ["viewer", "editor", "admin", "globalAdmin"]],
    ["PUT /v1/projects/{projectId}/flags/{flagKey}/targeting", ["editor", "admin", "globalAdmin"]],
    ["POST /v1/projects/{projectId}/segments", ["editor", "admin", "globalAdmin"]],
    ["POST /v1/projects/{projectId}/flags/{flagKey}/schedules", ["editor", "admin", "globalAdmin"]],
    ["GET /v1/projects/{projectId}/audit", ["viewer", "editor", "admin", "globalAdmin"]],
    ["GET /v1/projects/{projectId}/schedules", ["viewer", "editor", "admin", "globalAdmin"]],
    ["POST /v1/projects/{projectId}/environments", ["admin", "globalAdmin"]],
    ["GET /v1/projects/{projectId}/webhooks", ["admin", "globalAdmin"]],
    ["POST /v1/projects/{projectId}/keys", ["admin", "globalAdmin"]],
    ["GET /v1/projects/{projectId}/members", ["admin", "globalAdmin"]],
    ["PUT /v1/projects/{projectId}/members/{userId}", ["admin", "globalAdmin"]],
    ["POST /v1/projects", ["globalAdmin"]],
    ["GET /v1/users", ["globalAdmin"]],
    ["POST /v1/users/{id}/reset-password", ["globalAdmin"]]
  ]
  it.each(expectations)("%s: %j", (route, allowed) => {
    const requirement = ROUTE_REQUIREMENTS[route]!
    const mayTake = (["viewer", "editor", "admin", "globalAdmin"] as const).filter((who) => {
      const caller = who === "globalAdmin" ? person(true) : person(false, [{ projectId: "p1", role: who }])
      return Either.isRight(authorizeCaller(caller, requirement, "p1"))
    })
    expect(mayTake).toEqual(allowed)
  })

  it("every project row names a permission some role grants, and every permission reaches the admin role", () => {
    for (const requirement of Object.values(ROUTE_REQUIREMENTS)) {
      if (requirement._tag === "Project") expect(GRANTS.admin).toContain(requirement.permission)
    }
  })
})
