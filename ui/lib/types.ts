/**
 * The API's resources as the dashboard reads them (the wire shapes of docs/openapi.json).
 * The domain's schemas are not imported here as values on purpose: they would pull Effect into
 * the browser bundle for types the dashboard only reads. Where the domain declares the wire shape
 * as a plain type (an evaluation's result, explain's trace), it is re-exported type-only.
 */
export type FlagType = "boolean" | "string" | "number" | "json"

export interface Variation {
  readonly key: string
  readonly value: unknown
  readonly name?: string
}

export interface Condition {
  readonly attribute?: string
  readonly operator: string
  readonly values: ReadonlyArray<unknown>
  readonly negate?: boolean
}

export interface WeightedVariation {
  readonly variationKey: string
  readonly weight: number
}

export interface Rollout {
  readonly bucketBy?: string
  readonly seed?: string
  readonly variations: ReadonlyArray<WeightedVariation>
}

export interface Rule {
  readonly id?: string
  readonly name?: string
  readonly conditions: ReadonlyArray<Condition>
  readonly variationKey?: string
  readonly rollout?: Rollout
}

/** Another flag that must serve `variationKey` (same environment, same context) for this one to be evaluated. */
export interface Prerequisite {
  readonly flagKey: string
  readonly variationKey: string
}

export interface EnvironmentConfig {
  readonly environmentKey: string
  readonly enabled: boolean
  readonly defaultVariationKey: string
  readonly offVariationKey: string
  /** Absent from servers that predate prerequisites. */
  readonly prerequisites?: ReadonlyArray<Prerequisite>
  readonly rules: ReadonlyArray<Rule>
  /** When the flag was last evaluated in this environment (null: never). */
  readonly lastEvaluatedAt?: string | null
  /** This configuration's own version (absent from servers before per-environment versions). */
  readonly version?: number
}

export interface Flag {
  readonly key: string
  readonly name: string
  readonly description: string | null
  readonly type: FlagType
  readonly variations: ReadonlyArray<Variation>
  readonly configs: ReadonlyArray<EnvironmentConfig>
  readonly version: number
  readonly updatedAt: string
  /** Not evaluated in any environment for the server's stale period, and older than it. */
  readonly stale?: boolean
}

export interface Project {
  readonly id: string
  readonly name: string
}

export interface Environment {
  readonly key: string
  readonly name: string
  /** People change its targeting only through approved change requests (absent from older servers: false). */
  readonly protected?: boolean
  /** Approvals a change request to it needs (1-5). */
  readonly requiredApprovals?: number
  readonly createdAt: string
}

export interface Segment {
  readonly key: string
  readonly name: string
  readonly description: string | null
  readonly conditions: ReadonlyArray<Condition>
  readonly updatedAt: string
}

/** The flags' events: a new webhook subscribes to these unless told otherwise. */
export const FLAG_EVENTS = ["flag.created", "flag.updated", "flag.deleted", "targeting.updated"] as const
/** Every event a webhook may name: the flags' and the change requests' (opt-in). */
export const WEBHOOK_EVENTS = [...FLAG_EVENTS, "change_request.opened", "change_request.approved", "change_request.rejected", "change_request.applied"] as const

export interface Webhook {
  readonly id: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly enabled: boolean
  readonly hasSecret: boolean
  readonly createdAt: string
}

export interface DeliveryAttempt {
  readonly attemptedAt: string
  readonly statusCode: number | null
  readonly durationMs: number
  readonly error: string | null
  readonly nextAttemptAt: string | null
}

export interface Delivery {
  readonly id: string
  readonly eventType: string
  readonly status: "pending" | "succeeded" | "failed"
  readonly redeliveryOf: string | null
  readonly attempts: ReadonlyArray<DeliveryAttempt>
  readonly createdAt: string
}

/** An evaluation's answer: the domain's own type (type-only: nothing of the domain reaches the bundle). */
export type { EvaluationResult } from "../../src/domain/evaluation/EvaluationResult.js"

export type KeyType = "server" | "client"

/** An API key as the API lists it: never the secret, only its first characters (`prefix`). */
export interface ApiKey {
  readonly id: string
  readonly type: KeyType
  readonly projectId: string | null
  readonly name: string
  /** The one environment the key is bound to; null: every environment of the project. */
  readonly environment: string | null
  readonly prefix: string
  readonly createdAt: string
  readonly lastUsedAt: string | null
  readonly revokedAt: string | null
}

/** The answer to creating a key: the record and the secret, which the API shows this once. */
export interface CreatedApiKey extends ApiKey {
  readonly key: string
}

export interface List<A> {
  readonly data: ReadonlyArray<A>
}

/** An audit log entry (`GET /v1/projects/{p}/audit`). */
export interface AuditEntry {
  readonly id: string
  readonly projectId: string
  readonly at: string
  readonly actor: Actor
  readonly action: string
  readonly resource: { readonly type: string; readonly key: string }
  readonly environment?: string
  /** The change request this write applied (its applier is the actor). */
  readonly changeRequestId?: string
  readonly before: unknown
  readonly after: unknown
}

export interface AuditPage {
  readonly data: ReadonlyArray<AuditEntry>
  readonly nextCursor: string | null
}

/** Who made a change: a key, a person, the command line, or a schedule (with the key that made it). */
export interface Actor {
  readonly type: "key" | "user" | "cli" | "schedule"
  readonly keyId?: string
  readonly keyName?: string
  readonly userId?: string
  readonly email?: string
}

export type ScheduleStatus = "pending" | "applied" | "failed" | "cancelled"

/** A scheduled change: at `at`, the targeting of `environment` becomes `targeting`. */
export interface Schedule {
  readonly id: string
  readonly flagKey: string
  readonly environment: string
  readonly at: string
  readonly targeting: {
    readonly enabled: boolean
    readonly defaultVariationKey: string
    readonly offVariationKey: string
    readonly rules: ReadonlyArray<Rule>
  }
  readonly status: ScheduleStatus
  /** Why a failed schedule changed nothing. */
  readonly reason?: string
  readonly createdAt: string
  readonly actor: Actor
}

/** `GET .../flags/{flagKey}/insights`: evaluations per hour of each variation, zeros included. */
export interface InsightsSeries {
  readonly flagKey: string
  readonly environment: string
  readonly from: string
  readonly to: string
  readonly variations: ReadonlyArray<{
    readonly variationKey: string
    readonly total: number
    readonly points: ReadonlyArray<{ readonly hour: string; readonly count: number }>
  }>
}

/**
 * `POST /v1/explain`'s answer and the steps of its trace: the domain's own types (type-only, so
 * nothing of the domain reaches the bundle), so the dashboard reads exactly what the evaluator writes.
 */
export type { ConditionTrace, Explanation, FlagTrace, RuleTrace } from "../../src/domain/evaluation/Explain.js"

/**
 * People: a role in a project, the permissions of the roles table, a user and who is signed in
 * (`GET /v1/me`, the answer of sign-in and setup), a project's member: the domain's own types
 * (type-only).
 */
export type { Membership } from "../../src/domain/people/Role.js"
export type { Permission, Role } from "../../src/domain/people/Grants.js"
export type { User, UserWithMemberships as Me } from "../../src/domain/people/User.js"

/** The ways to sign in the server offers (`GET /v1/auth/providers`). */
export interface Providers {
  readonly password: boolean
  readonly oidc: { readonly name: string } | null
}

/** A member of a project: the person and their role there (`GET /v1/projects/{p}/members`). */
export type { Member } from "../../src/domain/people/Member.js"

/** A flag's targeting in one environment as a change request shows it (the PUT's body without `environment`). */
export interface ChangeTargeting {
  readonly enabled: boolean
  readonly defaultVariationKey: string
  readonly offVariationKey: string
  readonly prerequisites?: ReadonlyArray<Prerequisite>
  readonly rules: ReadonlyArray<Rule>
}

export type ChangeRequestStatus = "open" | "approved" | "rejected" | "cancelled" | "applied"

/** A change request (`GET /v1/projects/{p}/change-requests/{id}`): proposed targeting changes to one environment. */
/** Why an approval no longer counts: its approver was demoted, removed or disabled, or its key revoked. */
export type NotCountingReason = "demoted" | "removed" | "disabled" | "revoked"

/** An approval, judged by the API when it answered: whether it still counts, and why not. */
export interface CountedApproval {
  readonly by: Actor
  readonly at: string
  readonly comment: string | null
  readonly counts: boolean
  readonly notCountingReason: NotCountingReason | null
}

export interface ChangeRequest {
  readonly id: string
  readonly projectId: string
  readonly environment: string
  readonly title: string
  readonly description: string | null
  readonly status: ChangeRequestStatus
  readonly author: Actor
  readonly createdAt: string
  readonly updatedAt: string
  readonly changes: ReadonlyArray<{
    readonly flagKey: string
    readonly baseVersion: number
    readonly before: ChangeTargeting | null
    readonly after: ChangeTargeting
  }>
  readonly approvals: ReadonlyArray<CountedApproval>
  readonly requiredApprovals: number
  readonly applyAt: string | null
  readonly rejection: { readonly by: Actor; readonly at: string; readonly comment: string | null } | null
  readonly appliedAt: string | null
  readonly appliedBy: Actor | null
  readonly failure: string | null
  /** How many approvals count now; an apply needs `requiredApprovals`. */
  readonly countingApprovals: number
}
