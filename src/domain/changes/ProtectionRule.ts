/**
 * Who may write directly into an environment (docs/guide/change-requests.md, "The rules"): in a
 * protected environment a person's hand changes nothing without an approved change request, while
 * machines keep writing (a server key is automation; its audit entries name it).
 *
 * | environment | writer                                            | direct write |
 * |-------------|---------------------------------------------------|--------------|
 * | unprotected | anyone                                            | allowed      |
 * | protected   | a person (`user`)                                 | 409          |
 * | protected   | a schedule a person made (`schedule` + `userId`)  | 409          |
 * | protected   | a server key, a key's schedule                    | allowed      |
 * | protected   | the CLI or an Effect host (`cli`: the operator)   | allowed      |
 * | protected   | an approved change request being applied          | allowed      |
 *
 * Pure and total with no imports but types, so the dashboard bundles it as it is (no Effect in the
 * browser) to propose where a save would be refused; Protection.ts builds the use cases' decisions
 * (their errors) on it.
 */
import type { Actor } from "../audit/Actor.js"

/** The contract's message, verbatim. */
export const changeRequestRequiredMessage = (environment: string) => `Changes to ${environment} need an approved change request`

/** The environment as the rule needs it. */
export interface GuardedEnvironment {
  readonly key: string
  readonly protected: boolean
}

/** The writer as the rule needs it: what kind of actor, and for a schedule the person who made it. */
export type Writer = Pick<Actor, "type" | "userId">

/** Whether `writer` is a person's hand: a signed-in person, or a schedule a person made. */
export const isPersonsHand = (writer: Writer): boolean =>
  writer.type === "user" || (writer.type === "schedule" && writer.userId !== undefined)

/**
 * Whether a direct write of `writer` to `environment`'s configuration (targeting, schedules, copies
 * into it) needs an approved change request instead. `viaChangeRequest`: the write is an approved
 * change request being applied (its approvals were checked by the change request's own rules,
 * ChangeRequestRuleTable.ts).
 */
export const needsChangeRequest = (writer: Writer, environment: GuardedEnvironment, viaChangeRequest = false): boolean =>
  environment.protected && !viaChangeRequest && isPersonsHand(writer)
