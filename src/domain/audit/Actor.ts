import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
/**
 * Who made a management write, as the audit log records it. The HTTP adapter provides the
 * authenticated key or the signed-in person (`user`), the CLI provides `cli`, and the scheduler provides `schedule` with the key
 * that created the schedule (or `releasePlan` with the plan and who started it), so every use case learns its actor the same way: from `CurrentActor`.
 */
const ActorFields = {
  keyId: Schema.optional(Schema.String),
  keyName: Schema.optional(Schema.String),
  /** `user`: the person signed in (by session) who made the write. */
  userId: Schema.optional(Schema.String),
  email: Schema.optional(Schema.String)
}

/** Who started a release plan: a key, a person, the CLI (or a host). */
export const PlanStarter = Schema.Struct({ type: Schema.Literal("key", "cli", "schedule", "user"), ...ActorFields })
export type PlanStarter = typeof PlanStarter.Type

/**
 * `releasePlan`: what the scheduler does on a release plan's behalf (each step's targeting write,
 * the rollback on harm, and the plan's own `release_plan.advanced`, `.harmed`, `.paused` when a
 * step fails, `.completed` entries); `id` is the plan's, `startedBy` the actor who started it (the
 * person who answers for its steps).
 */
export const Actor = Schema.Struct({
  type: Schema.Literal("key", "cli", "schedule", "user", "releasePlan"),
  ...ActorFields,
  id: Schema.optional(Schema.String),
  startedBy: Schema.optional(PlanStarter)
})
export type Actor = typeof Actor.Type

/**
 * The actor of the running use case. Defaults to `cli` so that a host calling the kit's services
 * directly (no HTTP, no key) is recorded as an operator acting outside the API, like the CLI.
 */
export class CurrentActor extends Context.Reference<CurrentActor>()("flagport/CurrentActor", {
  defaultValue: (): Actor => ({ type: "cli" })
}) {}
