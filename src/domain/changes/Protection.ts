/**
 * Who may write directly into an environment (docs/change-requests.md, "The rules"): in a
 * protected environment a person's hand changes nothing without an approved change request, while
 * machines keep writing (a server key is automation; its audit entries name it). Pure and total.
 *
 * | environment | writer                                            | direct write |
 * |-------------|---------------------------------------------------|--------------|
 * | unprotected | anyone                                            | allowed      |
 * | protected   | a person (`user`)                                 | 409          |
 * | protected   | a schedule a person made (`schedule` + `userId`)  | 409          |
 * | protected   | a server key, a key's schedule                    | allowed      |
 * | protected   | the CLI or an Effect host (`cli`: the operator)   | allowed      |
 * | protected   | an approved change request being applied          | allowed      |
 */
import * as Either from "effect/Either"
import type { Actor } from "../audit/Actor.js"
import { ChangeRequestRequired } from "../Errors.js"

/** The contract's message, verbatim. */
export const changeRequestRequiredMessage = (environment: string) => `Changes to ${environment} need an approved change request`

/** The environment as the rule needs it. */
export interface GuardedEnvironment {
  readonly key: string
  readonly protected: boolean
}

/** Whether `actor` is a person's hand: a signed-in person, or a schedule a person made. */
export const isPersonsHand = (actor: Actor): boolean =>
  actor.type === "user" || (actor.type === "schedule" && actor.userId !== undefined)

/**
 * The decision for a direct write of `actor` to `environment`'s configuration (targeting, schedules,
 * copies into it). `viaChangeRequest`: the write is an approved change request being applied (its
 * approvals were checked by the change request's own rules, ChangeRequestRules.ts).
 */
export const directWrite = (
  actor: Actor,
  environment: GuardedEnvironment,
  viaChangeRequest = false
): Either.Either<void, ChangeRequestRequired> =>
  !environment.protected || viaChangeRequest || !isPersonsHand(actor)
    ? Either.void
    : Either.left(new ChangeRequestRequired({ message: changeRequestRequiredMessage(environment.key) }))
