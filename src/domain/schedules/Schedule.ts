import * as Schema from "effect/Schema"
import { Actor } from "../audit/Actor.js"
import { documentName } from "../DocumentName.js"
import { Key } from "../definitions/Ids.js"
import { isInstantText } from "../definitions/InstantText.js"
import type { Problem } from "../Errors.js"
import { Prerequisite, RuleInput, type TargetingInput } from "../definitions/Targeting.js"

/**
 * A scheduled change (contract: Scheduled changes): at `at`, the flag's configuration in
 * `environment` is replaced by `targeting`, exactly as `PUT .../targeting` would replace it.
 *
 * Life cycle: `pending` until it runs or is cancelled; then `applied`, `failed` (no longer valid
 * when it ran: `reason` says why, and nothing changed) or `cancelled`. Only a pending schedule
 * can be cancelled.
 */
export const ScheduleStatus = Schema.Literal("pending", "applied", "failed", "cancelled")
export type ScheduleStatus = typeof ScheduleStatus.Type

/**
 * The targeting of a schedule: the body of the targeting PUT. `environment` is named once, beside
 * it, so here it may be left out; when sent it must be the same environment.
 */
export const ScheduledTargeting = Schema.Struct({
  environment: Schema.optional(Key),
  enabled: Schema.Boolean,
  defaultVariationKey: Schema.String,
  offVariationKey: Schema.String,
  rules: Schema.Array(RuleInput),
  // As on the PUT: absent means none (the schedule replaces the whole configuration).
  prerequisites: Schema.optional(Schema.Array(Prerequisite))
}).annotations(documentName("ScheduledTargeting"))
export type ScheduledTargeting = typeof ScheduledTargeting.Type

/** What the schedule stores and answers: the targeting without its environment. */
export type StoredTargeting = Omit<ScheduledTargeting, "environment">

export const ScheduleTime = Schema.String.pipe(
  Schema.filter((s) => isInstantText(s) || "must be an ISO 8601 date and time with an offset, e.g. 2026-12-01T09:00:00Z")
)

/** Body of `POST /v1/projects/{projectId}/flags/{flagKey}/schedules`. */
export const CreateScheduleInput = Schema.Struct({
  environment: Key,
  at: ScheduleTime,
  targeting: ScheduledTargeting
}).annotations(documentName("CreateScheduleInput"))
export type CreateScheduleInput = typeof CreateScheduleInput.Type

/** A schedule as the API shows it. `reason` only on a failed one. */
export const Schedule = Schema.Struct({
  id: Schema.String,
  flagKey: Schema.String,
  environment: Schema.String,
  at: Schema.String,
  targeting: Schema.Struct({
    enabled: Schema.Boolean,
    defaultVariationKey: Schema.String,
    offVariationKey: Schema.String,
    rules: Schema.Array(RuleInput),
    prerequisites: Schema.optional(Schema.Array(Prerequisite))
  }),
  status: ScheduleStatus,
  reason: Schema.optional(Schema.String),
  createdAt: Schema.String,
  actor: Actor
}).annotations(documentName("Schedule"))
export type Schedule = typeof Schedule.Type

/** `at` as a contract timestamp (UTC, milliseconds), so stored times compare as text. */
export const normalizeTime = (at: string): string => new Date(Date.parse(at)).toISOString()

/** The targeting PUT body the schedule applies. */
export const targetingInputOf = (environment: string, targeting: StoredTargeting): TargetingInput => ({
  environment,
  enabled: targeting.enabled,
  defaultVariationKey: targeting.defaultVariationKey,
  offVariationKey: targeting.offVariationKey,
  rules: targeting.rules,
  ...(targeting.prerequisites === undefined ? {} : { prerequisites: targeting.prerequisites })
})

/** The stored form: the targeting without the environment named beside it. */
export const storedTargeting = ({ environment: _environment, ...rest }: ScheduledTargeting): StoredTargeting => rest

/** A problem when the targeting names another environment than the schedule. */
export const environmentProblems = (input: CreateScheduleInput): ReadonlyArray<Problem> =>
  input.targeting.environment === undefined || input.targeting.environment === input.environment
    ? []
    : [{ path: "targeting.environment", message: `must be '${input.environment}', the environment of the schedule (or left out)` }]

/** Validation problems of the targeting, at their place in the schedule's body. */
export const underTargeting = (problems: ReadonlyArray<Problem>): ReadonlyArray<Problem> =>
  problems.map((p) => ({ ...p, path: p.path === "" || p.path === "$" ? "targeting" : `targeting.${p.path}` }))

/** Why a schedule failed, in one line: the message and every problem with its path. */
export const failureReason = (message: string, details: ReadonlyArray<Problem> = []): string =>
  details.length === 0 ? message : `${message}: ${details.map((p) => `${p.path}: ${p.message}`).join("; ")}`

