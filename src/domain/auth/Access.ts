/**
 * Who may do what, decided for every caller from the one table (Permissions.ts) and the roles
 * table (people/Grants.ts). The use cases call these decisions (through
 * services/shared/Authorize.ts), so HTTP, the CLI and an Effect host get the same answers:
 *
 * - the operator (the CLI, an Effect host): everything;
 * - a key: a global server key everything, a project's server key its project, a client key
 *   nothing (Policy.authorizeManagement);
 * - a global administrator: everything but the operator's;
 * - a member: what their role in the operation's project grants; a project they are not a member
 *   of is 404 exactly as a project that does not exist (its existence is not revealed); beyond
 *   their role 403;
 * - projects and users: global administrators and global server keys; the project list shows a
 *   member their projects, a project's key its project;
 * - what only people may do (members' changes, approvals: Permissions.ts `peopleOnly`): no key;
 * - then the operation's reach: a key bound to one environment reaches only that one (Policy.ts).
 *
 * Pure and total: `Either`, no Effect.
 */
import * as Either from "effect/Either"
import { Forbidden, type ResourceNotFound } from "../Errors.js"
import { projectNotFound } from "../NotFound.js"
import { roleAllows } from "../people/Grants.js"
import type { Caller, Operator, PersonPrincipal } from "./Caller.js"
import type { Seen } from "./EnvironmentView.js"
import { type Operation, type PeopleOnly, type Reach, type Requirement, ruleOf } from "./Permissions.js"
import { PeopleMessages } from "./PeopleMessages.js"
import * as Policy from "./Policy.js"

/** The projects the caller may see through this route: `null` for every project. */
export type Visible = ReadonlyArray<string> | null

/** What an allowed operation lets its caller see: the projects and the environment (`null`: every one). */
export interface Decision {
  readonly visible: Visible
  readonly seen: Seen
}

/** Global keys are made and revoked with the command line only. */
export const OPERATOR_ONLY = "Only the operator can do this: global keys are made, listed and revoked with the command line"

/** The decision for a requirement; `projectId` is the operation's project, when it has one. */
export const authorizeCaller = (
  caller: Caller,
  requirement: Requirement,
  projectId: string | undefined
): Either.Either<Visible, Forbidden | ResourceNotFound> => {
  switch (caller._tag) {
    case "Operator":
      return Either.right(null)
    case "Person":
      return authorizePerson(caller, requirement, projectId)
    default:
      return authorizeKey(caller, requirement, projectId)
  }
}

const authorizeKey = (
  principal: Exclude<Caller, PersonPrincipal | Operator>,
  requirement: Requirement,
  projectId: string | undefined
): Either.Either<Visible, Forbidden> => {
  if (requirement._tag === "Operator") return Either.left(new Forbidden({ message: OPERATOR_ONLY }))
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
  if (requirement._tag === "Operator") return Either.left(new Forbidden({ message: OPERATOR_ONLY }))
  if (person.admin) return Either.right(null)
  switch (requirement._tag) {
    case "ListProjects":
      return Either.right(person.memberships.map((m) => m.projectId))
    case "GlobalAdmin":
      return Either.left(new Forbidden({ message: PeopleMessages.adminRequired }))
    case "Project": {
      // A project operation always names its project; a row without one would be a bug: refuse.
      if (projectId === undefined) return Either.left(new Forbidden({ message: PeopleMessages.adminRequired }))
      const membership = person.memberships.find((m) => m.projectId === projectId)
      if (membership === undefined) return Either.left(projectNotFound(projectId))
      return roleAllows(membership.role, requirement.permission)
        ? Either.right([projectId])
        : Either.left(new Forbidden({ message: PeopleMessages.roleForbids }))
    }
  }
}

const every = (
  environments: ReadonlyArray<string | null>,
  decide: (environment: string | null) => Either.Either<void, Forbidden>
): Either.Either<void, Forbidden> => {
  for (const environment of environments) {
    const decided = decide(environment)
    if (Either.isLeft(decided)) return decided
  }
  return Either.void
}

/**
 * The reach of an operation for the environments it names or acts on (Permissions.ts, `Reach`).
 * `variations` and `plan` are decided by their own rules (Policy.authorizeVariationsWrite,
 * ascode/PlanAccess.authorizePlan), which need more than the environments.
 */
export const authorizeReach = (caller: Caller, reach: Reach, environments: ReadonlyArray<string | null>): Either.Either<void, Forbidden> => {
  switch (reach) {
    case "project":
    case "variations":
    case "plan":
      return Either.void
    case "environment":
      // null: every environment at once (a manifest that names none takes the first, unknown to the caller).
      return every(environments, (environment) =>
        environment === null ? Policy.authorizeAllEnvironmentsRead(caller) : Policy.authorizeEnvironmentRead(caller, environment))
    case "everyRead":
      return Policy.authorizeAllEnvironmentsRead(caller)
    case "everyWrite":
      return Policy.authorizeAllEnvironmentsWrite(caller)
    case "newKey":
      return every(environments, (environment) => Policy.authorizeKeyCreation(caller, environment))
    case "revokedKey":
      return every(environments, (environment) => Policy.authorizeKeyRevocation(caller, environment))
  }
}

const PEOPLE_ONLY: { readonly [P in PeopleOnly]: string } = {
  members: PeopleMessages.keyChangesMembers,
  approvals: PeopleMessages.keyApproves
}

/** 403 for a key asking for what only people may do (`peopleOnly`); people and the operator pass. */
export const authorizePeopleOnly = (caller: Caller, peopleOnly: PeopleOnly | undefined): Either.Either<void, Forbidden> =>
  peopleOnly === undefined || caller._tag === "Person" || caller._tag === "Operator"
    ? Either.void
    : Either.left(new Forbidden({ message: PEOPLE_ONLY[peopleOnly] }))

/**
 * The decision for `operation` in `projectId`: what it needs of the caller (404 or 403), whether a
 * key may ask at all (`authorizePeopleOnly`), then its reach over `environments`, the environments
 * the call names (a key's own for a key made or revoked). `environments` undefined: not known yet (the environment of a record the operation
 * reads first, a schedule's or a change request's): the use case asks `authorizeReach` once it is.
 */
export const authorizeOperation = (
  caller: Caller,
  operation: Operation,
  projectId: string | undefined,
  environments?: ReadonlyArray<string | null>
): Either.Either<Decision, Forbidden | ResourceNotFound> => {
  const rule = ruleOf(operation)
  const needed = Either.flatMap(authorizeCaller(caller, rule.needs, projectId), (visible) => Either.map(authorizePeopleOnly(caller, rule.peopleOnly), () => visible))
  return Either.flatMap(needed, (visible) => {
    const deferred = environments === undefined && (rule.reach === "environment" || rule.reach === "newKey" || rule.reach === "revokedKey")
    const reached = deferred ? Either.void : authorizeReach(caller, rule.reach, environments ?? [])
    return Either.map(reached, (): Decision => ({ visible, seen: Policy.boundEnvironment(caller) }))
  })
}
