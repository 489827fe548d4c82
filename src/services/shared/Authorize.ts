/**
 * How a use case decides who may call it: its operation's row of the one table
 * (domain/auth/Permissions.ts), decided by domain/auth/Access.ts for the running use case's
 * caller (`CurrentCaller`: the key or person over HTTP, the operator from the CLI, whoever an
 * Effect host names). Asked first, before the use case reads or writes anything, so a refused call
 * changes nothing, takes no lock and learns nothing (a person who is not a member of the project
 * gets the 404 of a project that does not exist).
 */
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import { authorizeOperation, authorizeReach, type Decision } from "../../domain/auth/Access.js"
import { type Caller, CurrentCaller } from "../../domain/auth/Caller.js"
import { type Operation, ruleOf } from "../../domain/auth/Permissions.js"
import type { Forbidden, ResourceNotFound } from "../../domain/Errors.js"

/** An allowed call: the caller, and what it sees (the projects, the environment). */
export interface Allowed extends Decision {
  readonly caller: Caller
}

/**
 * 404 or 403 unless the caller may ask for `operation` in `projectId` over `environments` (those
 * the call names; leave them out when they are known only once a record is read, and ask `reach`
 * then).
 */
export const authorize = (
  operation: Operation,
  projectId?: string,
  environments?: ReadonlyArray<string | null>
): Effect.Effect<Allowed, Forbidden | ResourceNotFound> =>
  Effect.flatMap(CurrentCaller, (caller) => Effect.map(authorizeOperation(caller, operation, projectId, environments), (decision) => ({ ...decision, caller })))

/** `authorize` for an operation outside any project (users, global keys): its refusal is never a project's 404. */
export const authorizeGlobal = (operation: Operation): Effect.Effect<Allowed, Forbidden> =>
  authorize(operation).pipe(Effect.catchTag("ResourceNotFound", (error) => Effect.dieMessage(`${operation} names no project, yet: ${error.message}`)))

/** 403 unless `operation` of the caller may reach `environments` (a record's, read after `authorize`). */
export const reach = (operation: Operation, environments: ReadonlyArray<string | null>): Effect.Effect<void, Forbidden> =>
  Effect.flatMap(CurrentCaller, (caller) => authorizeReach(caller, ruleOf(operation).reach, environments))

/** 403 (or 404) unless `rule` allows the caller (the rules that need more than the environments: variations, a plan). */
export const allowedBy = <E extends Forbidden | ResourceNotFound>(rule: (caller: Caller) => Either.Either<void, E>): Effect.Effect<void, E> =>
  Effect.flatMap(CurrentCaller, rule)
