/**
 * Who may do what to a change request, and in which status: the rules table of
 * ChangeRequestRuleTable.ts (pure, shared with the dashboard) as the use cases' decisions, a
 * refusal as their error (403 `Forbidden`, 409 `ResourceConflict`). Read by the use cases, so
 * HTTP, the CLI and an Effect host are judged alike. Pure and total: `Either`, no Effect.
 */
import * as Either from "effect/Either"
import { Forbidden, ResourceConflict } from "../Errors.js"
import * as RuleTable from "./ChangeRequestRuleTable.js"

// The kit's `ChangeRequestRules` namespace (src/index.ts) keeps naming the table's parts.
export { ChangeRequestMessages, statusWith, underRequiredApprovals } from "./ChangeRequestRuleTable.js"
export type ChangeRequestAction = RuleTable.ChangeRequestAction
export type Situation = RuleTable.Situation

/** The decision for `action` in `situation`: 403 for who, 409 for when. */
export const decide = (action: ChangeRequestAction, s: Situation): Either.Either<void, Forbidden | ResourceConflict> => {
  const refusal = RuleTable.refusalOf(action, s)
  if (refusal === undefined) return Either.void
  return Either.left(refusal.status === 403 ? new Forbidden({ message: refusal.message }) : new ResourceConflict({ message: refusal.message }))
}
