/**
 * Who calls a management endpoint: a key (a machine, `Principal` of ApiKey.ts) or a person signed
 * in with a session. Evaluation stays key-only, so its code keeps taking `Principal`.
 */
import type { Actor } from "../audit/Actor.js"
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

export type Caller = Principal | PersonPrincipal

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
