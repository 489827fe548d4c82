/**
 * Who calls a management endpoint: a key (a machine, `Principal` of ApiKey.ts) or a person signed
 * in with a session. Evaluation stays key-only, so its code keeps taking `Principal`.
 */
import type { Membership } from "../people/Role.js"
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
