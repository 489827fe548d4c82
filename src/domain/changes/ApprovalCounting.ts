/**
 * Whether an approval still counts (docs/guide/change-requests.md, "Approvals that no longer count"): the
 * one rule the apply, the scheduler and every change-request answer read. An approval counts only
 * while its author may still approve in the project, and only a person's: one a key gave (before
 * keys were refused the approve) never counts. Otherwise it stays listed (who approved and when is
 * history) with the reason it does not count.
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import type { Actor } from "../audit/Actor.js"
import { type Role, roleAllows } from "../people/Grants.js"

/**
 * Why an approval no longer counts: its author may no longer approve in the project (`demoted`: a
 * project role without approval, such as editor or viewer), is no longer a member (`removed`, or
 * gone altogether), was `disabled`, or the key that approved was `revoked`; `key`: a key gave it,
 * and approvals are people's (a person could otherwise approve their own request under a key's name).
 */
export const NotCountingReason = Schema.Literal("demoted", "removed", "disabled", "revoked", "key").annotations(documentName("ApprovalNotCountingReason"))
export type NotCountingReason = typeof NotCountingReason.Type

/** Why an actor has no role in a project now. */
export type Absence = Exclude<NotCountingReason, "demoted" | "key">

/** An actor's standing in a project now: the role they act with, or why they have none. */
export type Standing = { readonly role: Role } | { readonly absence: Absence }

/** The role of a standing; null when the actor has none. */
export const roleOfStanding = (standing: Standing): Role | null => ("role" in standing ? standing.role : null)

/** Why an approval given by `by`, of this standing now, does not count; null when it counts. */
export const notCountingReason = (by: Actor, standing: Standing): NotCountingReason | null =>
  "absence" in standing ? standing.absence : by.type === "key" ? "key" : roleAllows(standing.role, "approve") ? null : "demoted"
