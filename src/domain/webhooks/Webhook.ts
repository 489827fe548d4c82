import * as Schema from "effect/Schema"
import { ChangeRequestRecord } from "../changes/ChangeRequest.js"
import { Flag } from "../definitions/Flag.js"
import { Experiment } from "../experiments/Experiment.js"
import { ReleasePlan } from "../releaseplans/ReleasePlan.js"
import { Timestamp } from "../definitions/Ids.js"
import { Text } from "../definitions/Text.js"
import { documentName } from "../DocumentName.js"

/** Events of flags (what is served changed). */
export const FlagEventType = Schema.Literal("flag.created", "flag.updated", "flag.deleted", "targeting.updated")
export type FlagEventType = typeof FlagEventType.Type

/** Events of change requests (docs/guide/change-requests.md): opt-in like the others. */
export const ChangeRequestEventType = Schema.Literal("change_request.opened", "change_request.approved", "change_request.rejected", "change_request.applied")
export type ChangeRequestEventType = typeof ChangeRequestEventType.Type

/** Events of experiments (docs/guide/experiments.md): opt-in like the change requests'. */
export const ExperimentEventType = Schema.Literal("experiment.started", "experiment.stopped")
export type ExperimentEventType = typeof ExperimentEventType.Type

/**
 * Events of release plans (docs/guide/release-plans.md): started, a step applied (`advanced`), paused (by
 * a person or a person's change to the rule), harmed (a guardrail stopped it: `harm` has the
 * figures), completed, cancelled.
 */
export const ReleasePlanEventType = Schema.Literal(
  "release_plan.started",
  "release_plan.advanced",
  "release_plan.paused",
  "release_plan.harmed",
  "release_plan.completed",
  "release_plan.cancelled"
)
export type ReleasePlanEventType = typeof ReleasePlanEventType.Type

export const WebhookEventType = Schema.Literal(
  ...FlagEventType.literals,
  ...ChangeRequestEventType.literals,
  ...ExperimentEventType.literals,
  ...ReleasePlanEventType.literals
)
export type WebhookEventType = typeof WebhookEventType.Type

/** The webhook record as the API returns it: the secret itself never leaves the server. */
export const Webhook = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  url: Schema.String,
  events: Schema.Array(WebhookEventType),
  enabled: Schema.Boolean,
  hasSecret: Schema.Boolean,
  /**
   * Present while a rotated-out secret is still honoured: until this time deliveries carry a
   * signature with the previous secret too (added by the webhook helper; secret rotation).
   */
  previousSecretExpiresAt: Schema.optional(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations(documentName("Webhook"))
export type Webhook = typeof Webhook.Type

const Secret = Text.pipe(Schema.minLength(8), Schema.maxLength(128))
const Events = Schema.Array(WebhookEventType).pipe(
  Schema.minItems(1, { message: () => "must name at least one event" })
)

export const CreateWebhookInput = Schema.Struct({
  url: Text,
  events: Events,
  secret: Schema.optional(Secret),
  enabled: Schema.optional(Schema.Boolean)
}).annotations(documentName("CreateWebhookInput"))
export type CreateWebhookInput = typeof CreateWebhookInput.Type

export const PatchWebhookInput = Schema.Struct({
  url: Schema.optional(Text),
  events: Schema.optional(Events),
  secret: Schema.optional(Schema.NullOr(Secret)),
  enabled: Schema.optional(Schema.Boolean)
}).annotations(documentName("PatchWebhookInput"))
export type PatchWebhookInput = typeof PatchWebhookInput.Type

/** The body of one delivered notification (contract: Webhooks). */
export const WebhookEvent = Schema.Struct({
  id: Schema.String,
  type: WebhookEventType,
  projectId: Schema.String,
  occurredAt: Timestamp,
  /**
   * A flag's event: the flag (and the environment of a targeting change); a change request's: the
   * request; an experiment's: the experiment after the change; a release plan's: the plan after it.
   */
  data: Schema.Union(
    Schema.Struct({
      flag: Flag,
      environment: Schema.optional(Schema.String)
    }),
    Schema.Struct({
      changeRequest: ChangeRequestRecord
    }),
    Schema.Struct({
      experiment: Experiment
    }),
    Schema.Struct({
      releasePlan: ReleasePlan
    })
  )
}).annotations(documentName("WebhookEvent"))
export type WebhookEvent = typeof WebhookEvent.Type

/**
 * Builds the contract payload of a flag lifecycle event. `flag` is the flag after the change
 * (for `flag.deleted`, as it was just before deletion); `environment` is set only for
 * `targeting.updated`.
 */
export const makeFlagEvent = (params: {
  readonly id: string
  readonly type: FlagEventType
  readonly projectId: string
  readonly occurredAt: string
  readonly flag: Flag
  readonly environment?: string | undefined
}): WebhookEvent => ({
  id: params.id,
  type: params.type,
  projectId: params.projectId,
  occurredAt: params.occurredAt,
  data:
    params.environment === undefined
      ? { flag: params.flag }
      : { flag: params.flag, environment: params.environment }
})

/** The payload of a change request's event: the request as the API shows it after the change. */
export const makeChangeRequestEvent = (params: {
  readonly id: string
  readonly type: ChangeRequestEventType
  readonly projectId: string
  readonly occurredAt: string
  readonly changeRequest: ChangeRequestRecord
}): WebhookEvent => ({
  id: params.id,
  type: params.type,
  projectId: params.projectId,
  occurredAt: params.occurredAt,
  data: { changeRequest: params.changeRequest }
})

/** The payload of an experiment's event: the experiment as the API shows it after the change. */
export const makeExperimentEvent = (params: {
  readonly id: string
  readonly type: ExperimentEventType
  readonly projectId: string
  readonly occurredAt: string
  readonly experiment: Experiment
}): WebhookEvent => ({
  id: params.id,
  type: params.type,
  projectId: params.projectId,
  occurredAt: params.occurredAt,
  data: { experiment: params.experiment }
})

/** The payload of a release plan's event: the plan as the API shows it after the change. */
export const makeReleasePlanEvent = (params: {
  readonly id: string
  readonly type: ReleasePlanEventType
  readonly projectId: string
  readonly occurredAt: string
  readonly releasePlan: ReleasePlan
}): WebhookEvent => ({
  id: params.id,
  type: params.type,
  projectId: params.projectId,
  occurredAt: params.occurredAt,
  data: { releasePlan: params.releasePlan }
})
