/**
 * The API's resources as the dashboard reads and sends them: the schemas of docs/openapi.json,
 * through the types generated from it (api-types.ts, `npm run api-types`), so a change to the API
 * breaks the dashboard's type check rather than its users. Only types: nothing here reaches the
 * bundle but the two event lists, which are checked against the API's own.
 */
import type { components } from "./api-types.js"

type Schemas = components["schemas"]

export type Variation = Schemas["Variation"]
export type FlagType = Schemas["Flag"]["type"]
export type Condition = Schemas["Condition"]
/** `{ anyOf: [[Condition, ...], ...] }`: holds when every condition of at least one of its lists holds (one level, no group inside). */
export type ConditionGroup = Schemas["ConditionGroup"]
/** An item of a rule's or a segment's `conditions`: a condition or a group. */
export type ConditionItem = Condition | ConditionGroup
export type WeightedVariation = Schemas["WeightedVariation"]
export type Rollout = Schemas["Rollout"]
/** A rule as the dashboard edits and sends it: a new one has no `id` yet (the API gives it one). */
export type Rule = Schemas["RuleInput"]
/** Another flag that must serve `variationKey` (same environment, same context) for this one to be evaluated. */
export type Prerequisite = Schemas["Prerequisite"]
/** A flag's targeting in one environment, with when it was last evaluated there (null: never). */
export type EnvironmentConfig = Schemas["TargetingWithUsage"]
/** A flag as the flags list and its page read it: `stale` when not evaluated anywhere for the server's stale period. */
export type Flag = Schemas["FlagWithUsage"]
/** One page of the flags list: `nextCursor` asks for the next one (null: the last). */
export type FlagPage = Schemas["FlagListPage"]
export type Project = Schemas["Project"]
/** `protected`: people change its targeting only through approved change requests, each needing `requiredApprovals`. */
export type Environment = Schemas["Environment"]
export type Segment = Schemas["Segment"]

export type WebhookEvent = Schemas["Webhook"]["events"][number]
/** The flags' events: a new webhook subscribes to these unless told otherwise. */
export const FLAG_EVENTS = ["flag.created", "flag.updated", "flag.deleted", "targeting.updated"] as const satisfies ReadonlyArray<WebhookEvent>
/** Every event a webhook may name: the flags' and the change requests' and experiments' (opt-in). */
export const WEBHOOK_EVENTS = [
  ...FLAG_EVENTS,
  "change_request.opened",
  "change_request.approved",
  "change_request.rejected",
  "change_request.applied",
  "experiment.started",
  "experiment.stopped",
  "release_plan.started",
  "release_plan.advanced",
  "release_plan.paused",
  "release_plan.harmed",
  "release_plan.completed",
  "release_plan.cancelled"
] as const satisfies ReadonlyArray<WebhookEvent>
/** Holds only when `T` is true: a check the type checker makes, with nothing left at run time. */
type Holds<T extends true> = T
/** Every event the API knows is offered: an event the API adds fails the type check until it is listed above. */
export type EveryEventOffered = Holds<[Exclude<WebhookEvent, (typeof WEBHOOK_EVENTS)[number]>] extends [never] ? true : false>

export type Webhook = Schemas["Webhook"]
export type DeliveryAttempt = Schemas["DeliveryAttempt"]
export type Delivery = Schemas["Delivery"]

/** An evaluation's answer. */
export type EvaluationResult = Schemas["EvaluationResult"]

export type KeyType = Schemas["ApiKey"]["type"]
/** An API key as the API lists it: never the secret, only its first characters (`prefix`). */
export type ApiKey = Schemas["ApiKey"]
/** The answer to creating a key: the record and the secret, which the API shows this once. */
export type CreatedApiKey = Schemas["CreatedApiKey"]

export interface List<A> {
  readonly data: ReadonlyArray<A>
}

/** An audit log entry (`GET /v1/projects/{p}/audit`). */
export type AuditEntry = Schemas["AuditEntry"]
export type AuditPage = Schemas["AuditPage"]

/** Who made a change: a key, a person, the command line, or a schedule (with the key that made it). */
export type Actor = AuditEntry["actor"]

/** A scheduled change: at `at`, the targeting of `environment` becomes `targeting`. */
export type Schedule = Schemas["Schedule"]
export type ScheduleStatus = Schedule["status"]

/** `GET .../flags/{flagKey}/insights`: evaluations per hour of each variation, zeros included. */
export type InsightsSeries = Schemas["InsightsSeries"]

/** `POST /v1/explain`'s answer and the steps of its trace. */
export type Explanation = Schemas["Explanation"]
export type FlagTrace = Schemas["FlagTrace"]
export type RuleTrace = Schemas["RuleTrace"]
export type ConditionTrace = Schemas["ConditionTrace"]
/** A group's trace: the lists tried in order and which one matched (`matchedList`, null: none). */
export type GroupTrace = Schemas["GroupTrace"]
export type SegmentConditionTrace = Schemas["SegmentConditionTrace"]
export type SegmentGroupTrace = Schemas["SegmentGroupTrace"]

/**
 * People: a role in a project, the permissions of the roles table (the domain's, src/domain/people/
 * Grants.ts), a user and who is signed in (`GET /v1/me`, the answer of sign-in and setup), a
 * project's member (`GET /v1/projects/{p}/members`).
 */
export type { Permission, Role } from "../../src/domain/people/Grants.js"
export type Membership = Schemas["Membership"]
export type User = Schemas["User"]
export type Me = Schemas["Me"]
export type Member = Schemas["Member"]

/** The ways to sign in the server offers (`GET /v1/auth/providers`). */
export type Providers = Schemas["SignInProviders"]

/** A flag's targeting in one environment as a change request shows it (the PUT's body without `environment`). */
export type ChangeTargeting = Schemas["ChangeTargeting"]
/** A segment a change request's rules name, as pinned when it was opened or its changes last updated. */
export type ChangeSegment = Schemas["ChangeSegment"]

export type ChangeRequestStatus = ChangeRequest["status"]
/** Why an approval no longer counts: its approver was demoted, removed or disabled, or its key revoked. */
export type NotCountingReason = Schemas["ApprovalNotCountingReason"]
/** An approval, judged by the API when it answered: whether it still counts, and why not. */
export type CountedApproval = Schemas["CountedApproval"]
/** A change request (`GET /v1/projects/{p}/change-requests/{id}`): proposed targeting changes to one environment; an apply needs `requiredApprovals` that count (`countingApprovals`). */
export type ChangeRequest = Schemas["ChangeRequest"]

/** An experiment (`GET /v1/projects/{p}/experiments/{key}`): a flag's rule's percentage rollout measured by metrics. */
export type Experiment = Schemas["Experiment"]
export type ExperimentStatus = Experiment["status"]
/** What the team decided when it stopped an experiment. */
export type ExperimentDecision = Schemas["ExperimentDecision"]
/** A metric: an event SDKs send, per unit a conversion (0/1) or a sum, with the direction that is better. */
export type Metric = Schemas["Metric"]
/** A release plan (`GET /v1/projects/{p}/flags/{k}/release-plans/{id}`): a variation of a rule ramped up step by step, stopped by guardrails. */
export type ReleasePlan = Schemas["ReleasePlan"]
export type CreateReleasePlanInput = Schemas["CreateReleasePlanInput"]
/** What a plan's guardrails show at one check (`GET .../release-plans/{id}/guardrails`, and a harm's `check`). */
export type GuardrailCheck = Schemas["GuardrailCheck"]
export type Analysis = Schemas["Analysis"]
export type CreateExperimentInput = Schemas["CreateExperimentInput"]
/** A rule of a flag's targeting as the API answers it (with its `id`). */
export type SavedRule = Schemas["Rule"]
export type KeyLists = Schemas["SegmentKeyLists"]
export type KeyListInfo = Schemas["SegmentKeyLists"]["included"]
