/**
 * The decisions of protected environments for the use cases: a direct write (the rule of
 * ProtectionRule.ts, pure and shared with the dashboard) and a write above one environment's
 * configuration that still changes what environments serve. Pure and total: `Either`, no Effect.
 */
import * as Either from "effect/Either"
import type { Actor } from "../audit/Actor.js"
import { sameJson } from "../definitions/ConfigVersion.js"
import type { Flag, Variation } from "../definitions/Flag.js"
import { segmentKeysInUse } from "../definitions/Validation.js"
import { ChangeRequestRequired } from "../Errors.js"
import * as ProtectionRule from "./ProtectionRule.js"

// The kit's `Protection` namespace (src/index.ts) keeps naming the rule's parts.
export { changeRequestRequiredMessage, isPersonsHand } from "./ProtectionRule.js"
export type GuardedEnvironment = ProtectionRule.GuardedEnvironment

/**
 * The decision for a direct write of `actor` to `environment`'s configuration (targeting, schedules,
 * copies into it): refused (409) where ProtectionRule.ts says it needs an approved change request.
 * `viaChangeRequest`: the write is an approved change request being applied.
 */
export const directWrite = (
  actor: Actor,
  environment: GuardedEnvironment,
  viaChangeRequest = false
): Either.Either<void, ChangeRequestRequired> =>
  ProtectionRule.needsChangeRequest(actor, environment, viaChangeRequest)
    ? Either.left(new ChangeRequestRequired({ message: ProtectionRule.changeRequestRequiredMessage(environment.key) }))
    : Either.void

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
  if (!ProtectionRule.isPersonsHand(actor)) return Either.void
  const affected = environments.find((environment) => environment.protected && changesServed(write, environment.key))
  return affected === undefined ? Either.void : directWrite(actor, affected)
}
