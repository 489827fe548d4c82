import * as Effect from "effect/Effect"
import type { Actor } from "../../src/domain/audit/Actor.js"
import { Users } from "../../src/services/people/Users.js"
import { freshProjectId } from "./Backend.js"

/**
 * A person who may approve change requests in any project (a global administrator), as the actor
 * approving: approvals are people's, and one a key gave does not count.
 */
export const givenApprover: Effect.Effect<Actor, unknown, Users> = Effect.flatMap(Users, (users) =>
  users.invite({ email: `approver.${freshProjectId()}@example.com`, admin: true })
).pipe(Effect.map(({ user }): Actor => ({ type: "user", userId: user.id })))
