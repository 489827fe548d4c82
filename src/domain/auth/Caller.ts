/**
 * Who calls a use case: a key (a machine, `Principal` of ApiKey.ts), a person signed in with a
 * session, or the operator (the command line, or an Effect host acting with its full access).
 * Evaluation stays key-only, so its code keeps taking `Principal`.
 *
 * The use cases learn their caller from `CurrentCaller`, as they learn the actor they record from
 * `CurrentActor` (audit/Actor.ts): the HTTP adapter provides the authenticated key or person, the
 * CLI provides the operator and says so, an Effect host provides its own. Every decision of who may
 * do what reads the caller (Access.ts over the table of Permissions.ts).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { type Actor, CurrentActor } from "../audit/Actor.js"
import type { Membership } from "../people/Role.js"
import type { UserWithMemberships } from "../people/User.js"
import type { Principal } from "./ApiKey.js"

/** A signed-in person, as a session authenticates them: global admin or member of some projects. */
export interface PersonPrincipal {
  readonly _tag: "Person"
  readonly userId: string
  readonly email: string
  /** A global administrator: every project, users, projects. */
  readonly admin: boolean
  readonly memberships: ReadonlyArray<Membership>
}

/**
 * The operator: whoever runs the command line, or an Effect host calling the use cases with the
 * access of the machine they run on. Every decision allows it (global keys included, which only it
 * makes and revokes); its writes are recorded as `cli`.
 */
export interface Operator {
  readonly _tag: "Operator"
}

export type Caller = Principal | PersonPrincipal | Operator

export const operator: Operator = { _tag: "Operator" }

export const isPerson = (caller: Caller): caller is PersonPrincipal => caller._tag === "Person"

/** The person of a session, as the policy sees them. */
export const personOf = ({ memberships, user }: UserWithMemberships): PersonPrincipal => ({
  _tag: "Person",
  userId: user.id,
  email: user.email,
  admin: user.admin,
  memberships
})

/** A person as the audit log records them. */
export const personActor = (person: Pick<PersonPrincipal, "userId" | "email">): Actor => ({ type: "user", userId: person.userId, email: person.email })

/** The key behind a caller, when it is one (a key cannot revoke itself). */
export const keyIdOf = (caller: Caller): string | null => (caller._tag === "Person" || caller._tag === "Operator" ? null : caller.keyId)

/**
 * The caller as the audit log records it when nothing more is known (a key's name is the
 * authenticating adapter's to add): a person, a key by its id, the operator as `cli`.
 */
export const actorOf = (caller: Caller): Actor => {
  switch (caller._tag) {
    case "Person":
      return personActor(caller)
    case "Operator":
      return { type: "cli" }
    default:
      return { type: "key", keyId: caller.keyId }
  }
}

/**
 * The caller of the running use case. Defaults to the operator, as `CurrentActor` defaults to
 * `cli`: a host calling the kit's services without naming a caller acts as the operator it is
 * recorded as. The CLI provides it explicitly; the HTTP adapter provides each request's key or person.
 */
export class CurrentCaller extends Context.Reference<CurrentCaller>()("flagport/CurrentCaller", {
  defaultValue: (): Caller => operator
}) {}

/**
 * Runs `effect` as `caller`, recorded in the audit log as `actor` (by default what `actorOf` says):
 * how the HTTP adapter, the CLI and an Effect host hand a use case its caller, both halves at once.
 */
export const actingAs = (caller: Caller, actor: Actor = actorOf(caller)) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  effect.pipe(Effect.provideService(CurrentCaller, caller), Effect.provideService(CurrentActor, actor))
