/**
 * Who may apply a flags-as-code plan (Permissions.ts, reach `plan`): each change as its own
 * operation would decide it, so an apply lets nobody do what the API's own calls would refuse.
 *
 * - a new project: a global administrator (or a global server key);
 * - an environment created or changed: `manage` in the project;
 * - targeting, an environment's settings, or a release plan: a key bound to an environment writes only that one;
 * - every environment the file names, even unchanged: a key bound to another may not name it (an
 *   unchanged targeting plans nothing, which would tell it its guess of another environment's
 *   targeting was right);
 * - a flag created or deleted, a segment written: no key bound to one environment;
 * - a flag's variations: the rule of a PATCH (Policy.authorizeVariationsWrite).
 *
 * Pure and total: `Either`, no Effect.
 */
import * as Either from "effect/Either"
import type { FilePlan, PlannedChange } from "./Plan.js"
import { authorizeCaller } from "../auth/Access.js"
import type { Caller } from "../auth/Caller.js"
import * as Policy from "../auth/Policy.js"
import type { Forbidden, ResourceNotFound } from "../Errors.js"

type Refusal = Forbidden | ResourceNotFound

/** Whether a planned change writes what every environment serves: a flag created or deleted, any segment write. */
const writesEveryEnvironment = (change: PlannedChange): boolean =>
  (change.resource === "flag" && change.action !== "update") || change.resource === "segment"

/** The environment whose configuration a change writes, if it writes one. */
const environmentWritten = (change: PlannedChange): string | undefined =>
  change.resource === "targeting" || change.resource === "release_plan"
    ? change.environment
    : change.resource === "environment" && change.action === "update"
    ? change.key
    : undefined

/** The first refusal among `decisions`, asked in order (each only when those before it allowed). */
const firstRefusal = (decisions: ReadonlyArray<() => Either.Either<unknown, Refusal>>): Either.Either<void, Refusal> => {
  for (const decide of decisions) {
    const decided = decide()
    if (Either.isLeft(decided)) return Either.left(decided.left)
  }
  return Either.void
}

/** 403 (or a person's 404) unless `caller` may make every change of `plan`. */
export const authorizePlan = (caller: Caller, plan: FilePlan): Either.Either<void, Refusal> => {
  const { changes, projectId } = plan
  const written = [...new Set(changes.flatMap((change) => environmentWritten(change) ?? []))]
  return firstRefusal([
    () => (changes.some((c) => c.resource === "project") ? authorizeCaller(caller, { _tag: "GlobalAdmin" }, projectId) : Either.void),
    () => (changes.some((c) => c.resource === "environment") ? authorizeCaller(caller, { _tag: "Project", permission: "manage" }, projectId) : Either.void),
    ...written.map((environment) => () => Policy.authorizeEnvironmentWrite(caller, environment)),
    ...plan.environmentsNamed.map((environment) => () => Policy.authorizeEnvironmentRead(caller, environment)),
    () => (changes.some(writesEveryEnvironment) ? Policy.authorizeAllEnvironmentsWrite(caller) : Either.void),
    ...changes.map((change) => () =>
      change.resource === "flag" && change.action === "update"
        ? Policy.authorizeVariationsWrite(caller, change.before?.variations, change.after.variations)
        : Either.void)
  ])
}
