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
import { sameJson } from "../definitions/ConfigVersion.js"
import type { Flag, Variation } from "../definitions/Flag.js"
import { segmentKeysInUse } from "../definitions/Validation.js"
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

/**
 * A write above one environment's configuration that still changes what environments serve. Change
 * requests carry targeting only, so a person cannot route these through one: in a protected
 * environment they need a server key (audited under its name) or an admin unprotecting it first.
 *
 * | write                                                        | environments it changes                         |
 * |--------------------------------------------------------------|-------------------------------------------------|
 * | delete a flag                                                | every one (a flag exists in every environment)  |
 * | patch a flag: an existing variation's value changed, or one removed | every one                                |
 * | patch a flag otherwise (name, description, a variation added)| none                                            |
 * | change or delete a segment                                   | those whose stored targeting names the segment  |
 */
export type SharedWrite =
  | { readonly _tag: "DeleteFlag" }
  | { readonly _tag: "PatchVariations"; readonly before: ReadonlyArray<Variation>; readonly after: ReadonlyArray<Variation> | undefined }
  | { readonly _tag: "WriteSegment"; readonly segmentKey: string; readonly flags: ReadonlyArray<Pick<Flag, "configs">> }

/** Whether `after` changes the value of a variation of `before` or leaves one out (adding one changes nothing served). */
export const variationsRewritten = (before: ReadonlyArray<Variation>, after: ReadonlyArray<Variation> | undefined): boolean =>
  after !== undefined &&
  before.some((old) => {
    const kept = after.find((v) => v.key === old.key)
    return kept === undefined || !sameJson(kept.value, old.value)
  })

/** Whether `write` changes what `environmentKey` serves (the table above). */
export const changesServed = (write: SharedWrite, environmentKey: string): boolean => {
  switch (write._tag) {
    case "DeleteFlag":
      return true
    case "PatchVariations":
      return variationsRewritten(write.before, write.after)
    case "WriteSegment":
      return write.flags.some((flag) =>
        segmentKeysInUse(flag.configs.filter((c) => c.environmentKey === environmentKey)).has(write.segmentKey)
      )
  }
}

/**
 * The decision for `write` by `actor`: refused, naming the first (in project order) protected
 * environment whose serving it changes, exactly as `directWrite` refuses a person there.
 */
export const sharedWrite = (
  actor: Actor,
  environments: ReadonlyArray<GuardedEnvironment>,
  write: SharedWrite
): Either.Either<void, ChangeRequestRequired> => {
  if (!isPersonsHand(actor)) return Either.void
  const affected = environments.find((environment) => environment.protected && changesServed(write, environment.key))
  return affected === undefined ? Either.void : directWrite(actor, affected)
}
