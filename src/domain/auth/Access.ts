/**
 * The decisions of the management routes for every caller, keys and people alike, read from the
 * one route table (Permissions.ts) and the roles table (people/Role.ts):
 *
 * - a key: as before (Policy.authorizeManagement): a global server key everything, a project's
 *   server key its project, a client key nothing;
 * - a global administrator: everything;
 * - a member: what their role in the route's project grants; a project they are not a member of
 *   is 404 exactly as a project that does not exist (its existence is not revealed); a route
 *   beyond their role is 403;
 * - projects and users: global administrators only; the project list shows a member their projects.
 *
 * Pure and total: `Either`, no Effect.
 */
import * as Either from "effect/Either"
import { Forbidden, type ResourceNotFound } from "../Errors.js"
import { projectNotFound } from "../NotFound.js"
import { roleAllows } from "../people/Grants.js"
import type { Caller, PersonPrincipal } from "./Caller.js"
import type { Requirement } from "./Permissions.js"
import { PeopleMessages } from "./PeopleMessages.js"
import * as Policy from "./Policy.js"

/** The projects the caller may see through this route: `null` for every project. */
export type Visible = ReadonlyArray<string> | null

/** The decision for a route's requirement; `projectId` is the route's `{projectId}`, when it has one. */
export const authorizeCaller = (
  caller: Caller,
  requirement: Requirement,
  projectId: string | undefined
): Either.Either<Visible, Forbidden | ResourceNotFound> =>
  caller._tag === "Person" ? authorizePerson(caller, requirement, projectId) : authorizeKey(caller, requirement, projectId)

const authorizeKey = (
  principal: Exclude<Caller, PersonPrincipal>,
  requirement: Requirement,
  projectId: string | undefined
): Either.Either<Visible, Forbidden> => {
  const target: Policy.ManagementTarget = requirement._tag === "Project" && projectId !== undefined
    ? { _tag: "Project", projectId }
    : requirement._tag === "ListProjects"
    ? { _tag: "ListProjects" }
    : { _tag: "CreateProject" }
  return Either.map(Policy.authorizeManagement(principal, target), (scope) => (scope === null ? null : [scope]))
}

export const authorizePerson = (
  person: PersonPrincipal,
  requirement: Requirement,
  projectId: string | undefined
): Either.Either<Visible, Forbidden | ResourceNotFound> => {
  if (person.admin) return Either.right(null)
  switch (requirement._tag) {
    case "ListProjects":
      return Either.right(person.memberships.map((m) => m.projectId))
    case "GlobalAdmin":
      return Either.left(new Forbidden({ message: PeopleMessages.adminRequired }))
    case "Project": {
      // A project route always names its project; a table row without one would be a bug: refuse.
      if (projectId === undefined) return Either.left(new Forbidden({ message: PeopleMessages.adminRequired }))
      const membership = person.memberships.find((m) => m.projectId === projectId)
      if (membership === undefined) return Either.left(projectNotFound(projectId))
      return roleAllows(membership.role, requirement.permission)
        ? Either.right([projectId])
        : Either.left(new Forbidden({ message: PeopleMessages.roleForbids }))
    }
  }
}
