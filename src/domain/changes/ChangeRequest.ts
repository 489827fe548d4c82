/**
 * Change requests (docs/guide/change-requests.md): a proposed set of targeting changes to one environment,
 * and release plans to start there (PlanChange.ts), approved by others before it is applied.
 * Schemas of the API and the stored record.
 *
 * Life cycle: `open` -> `approved` (approvals reach `requiredApprovals`) -> `applied`; `open` or
 * `approved` -> `rejected` | `cancelled`. An update (by the author) clears the approvals: back to
 * `open`. A scheduled one (`applyAt`) that cannot be applied when due (a flag moved on) stays
 * `approved`, with `failure` saying why, until its author updates it.
 */
import * as Schema from "effect/Schema"
import { Actor } from "../audit/Actor.js"
import type { Flag } from "../definitions/Flag.js"
import { Key, Timestamp } from "../definitions/Ids.js"
import { ConditionOrGroup, Prerequisite, RuleInput } from "../definitions/Targeting.js"
import { segmentKeysOfRules } from "../definitions/Validation.js"
import { Text } from "../definitions/Text.js"
import { documentName } from "../DocumentName.js"
import { NotCountingReason } from "./ApprovalCounting.js"
import { PlanChange, PlanChangeInputs } from "./PlanChange.js"
import { ScheduledTargeting, ScheduleTime } from "../schedules/Schedule.js"

export const ChangeRequestStatus = Schema.Literal("open", "approved", "rejected", "cancelled", "applied")
export type ChangeRequestStatus = typeof ChangeRequestStatus.Type

/** At most this many flags in one change request. */
export const MAX_CHANGES = 50

/** A flag's configuration in the environment as a change shows it (the PUT's body without `environment`). */
export const ShownTargeting = Schema.Struct({
  enabled: Schema.Boolean,
  defaultVariationKey: Schema.String,
  offVariationKey: Schema.String,
  prerequisites: Schema.optional(Schema.Array(Prerequisite)),
  rules: Schema.Array(RuleInput)
}).annotations(documentName("ChangeTargeting"))
export type ShownTargeting = typeof ShownTargeting.Type

/** A flag's configuration in `environment` as a change shows it; null when it has none. */
export const shownConfig = (flag: Flag, environment: string): ShownTargeting | null => {
  const config = flag.configs.find((c) => c.environmentKey === environment)
  if (config === undefined) return null
  return {
    enabled: config.enabled,
    defaultVariationKey: config.defaultVariationKey,
    offVariationKey: config.offVariationKey,
    prerequisites: config.prerequisites ?? [],
    rules: config.rules
  }
}

/** One flag's change: the version it was based on, its configuration then, and the one proposed. */
export const Change = Schema.Struct({
  flagKey: Schema.String,
  baseVersion: Schema.Number,
  before: Schema.NullOr(ShownTargeting),
  after: ShownTargeting
}).annotations(documentName("Change"))
export type Change = typeof Change.Type

/**
 * A segment a change's `after` names, as it was when the request was opened or last updated: what
 * the approvers approved along with the targeting. The apply refuses (409) when the segment is gone
 * or changed since (`updatedAt`, the segment's version, or its conditions differ).
 */
export const PinnedSegment = Schema.Struct({
  key: Schema.String,
  name: Schema.String,
  conditions: Schema.Array(ConditionOrGroup),
  updatedAt: Timestamp
}).annotations(documentName("ChangeSegment"))
export type PinnedSegment = typeof PinnedSegment.Type

/** The keys of the segments the rules of `after` name (`inSegment` / `notInSegment` values), each once, sorted. */
export const segmentKeysOf = (changes: ReadonlyArray<{ readonly after: ShownTargeting }>): ReadonlyArray<string> =>
  [...segmentKeysOfRules(changes.flatMap(({ after }) => after.rules))].sort()

export const Approval = Schema.Struct({
  by: Actor,
  at: Timestamp,
  comment: Schema.NullOr(Schema.String)
}).annotations(documentName("Approval"))
export type Approval = typeof Approval.Type

/** An approval as an answer shows it: whether it still counts (ApprovalCounting.ts), and why not. */
export const CountedApproval = Schema.Struct({
  ...Approval.fields,
  counts: Schema.Boolean.annotations({
    description: "Whether this approval counts now: its author may still approve in the project (a project admin or a global admin, not disabled) and is a person (an approval a key gave before keys were refused never counts). Judged each time the request is read, by the rule the apply uses."
  }),
  notCountingReason: Schema.NullOr(NotCountingReason).annotations({
    description: "Why it no longer counts (null while it counts): `demoted` (the approver's role here no longer approves, e.g. now an editor), `removed` (no longer a member, or gone), `disabled`, `revoked` (the approving key, since revoked) or `key` (a key gave it, before keys were refused the approve: approvals are people's)."
  })
}).annotations(documentName("CountedApproval"))
export type CountedApproval = typeof CountedApproval.Type

/**
 * The request as it is kept, audited and sent to webhooks: the approvals as given, none judged (an
 * event made then stays true; whether an approval still counts changes with people's roles).
 */
export const ChangeRequestRecord = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  environment: Schema.String,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  status: ChangeRequestStatus,
  author: Actor,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  changes: Schema.Array(Change),
  releasePlans: Schema.Array(PlanChange).annotations({
    description: "The release plans the request starts (or resumes) when applied, after its targeting changes: each pinned as it was when the request was opened or its plans last updated (`baseVersion`, `plan`). The apply is refused (409, as for a flag that moved on) when a plan changed since. Empty for a request of targeting changes only."
  }),
  segments: Schema.Array(PinnedSegment).annotations({
    description: "The segments the changes' rules name, pinned as they were when the request was opened or its changes last updated (key, name, conditions, updatedAt): what an approver approves along with the diff. The apply is refused (409, as for a flag that moved on) when one is gone or changed since."
  }),
  approvals: Schema.Array(Approval),
  /** The environment's `requiredApprovals` when the request was opened or last updated. */
  requiredApprovals: Schema.Number,
  /** When the scheduler applies it once approved (null: by hand). */
  applyAt: Schema.NullOr(Timestamp),
  /** Who rejected it, when, and why. */
  rejection: Schema.NullOr(Approval),
  appliedAt: Schema.NullOr(Timestamp),
  appliedBy: Schema.NullOr(Actor),
  /** Why the scheduler could not apply it when due (null otherwise). */
  failure: Schema.NullOr(Schema.String)
}).annotations({
  ...documentName("ChangeRequestRecord"),
  description: "A change request as it was recorded (webhook events): its approvals as given. Whether each still counts is in the API's answers (`ChangeRequest`)."
})
export type ChangeRequestRecord = typeof ChangeRequestRecord.Type

/**
 * The request as the API shows it (webhooks carry the record): the record with each approval judged when it is
 * shown (`counts`), and how many count. `status` stays the record's: an approved request whose
 * counting approvals fell below `requiredApprovals` is still `approved`, but its apply is refused.
 */
export const ChangeRequest = Schema.Struct({
  ...ChangeRequestRecord.fields,
  approvals: Schema.Array(CountedApproval),
  countingApprovals: Schema.Number.annotations({
    description: "How many of `approvals` count now (`counts`); an apply needs at least `requiredApprovals`. An `approved` request with fewer is not ready: its apply answers 409 until others approve it."
  })
}).annotations(documentName("ChangeRequest"))
export type ChangeRequest = typeof ChangeRequest.Type

/** The record the storage keeps: the request, and a version every write grows (compare-and-set). */
export interface StoredChangeRequest extends ChangeRequestRecord {
  readonly version: number
}

/**
 * The request as it is audited and sent to webhooks: as kept, approvals as given (the storage's
 * version is its own). Whether each approval still counts is judged when an answer is made.
 */
export const recordOf = ({ version: _version, ...request }: StoredChangeRequest): ChangeRequestRecord => request

/** A title names the request in lists and notifications: it must say something (not blank). */
const Title = Text.pipe(
  Schema.minLength(1),
  Schema.maxLength(200),
  Schema.pattern(/\S/, { message: () => "must say something (not blank)" })
)
const Description = Text.pipe(Schema.maxLength(4000))

export const ChangeInput = Schema.Struct({
  flagKey: Key,
  targeting: ScheduledTargeting
}).annotations(documentName("ChangeInput"))
export type ChangeInput = typeof ChangeInput.Type

const Changes = Schema.Array(ChangeInput).pipe(
  Schema.minItems(1, { message: () => "must name at least one flag" }),
  Schema.maxItems(MAX_CHANGES, { message: () => `must name at most ${MAX_CHANGES} flags` })
)

/**
 * Body of `POST /v1/projects/{p}/change-requests`: targeting `changes`, release plans to start or
 * resume (`releasePlans`), or both; at least one of them (the use case says so with a 400).
 */
export const CreateChangeRequestInput = Schema.Struct({
  title: Title,
  description: Schema.optional(Description),
  environment: Key,
  changes: Schema.optional(Changes),
  releasePlans: Schema.optional(PlanChangeInputs),
  applyAt: Schema.optional(ScheduleTime)
}).annotations(documentName("CreateChangeRequestInput"))
export type CreateChangeRequestInput = typeof CreateChangeRequestInput.Type

/**
 * Body of `PUT /v1/projects/{p}/change-requests/{id}`: what is sent replaces what was (`changes`
 * re-based on the flags as they are now, `releasePlans` re-pinned on the plans as they are now;
 * left out, they stay exactly as they were, base versions included), and the approvals are
 * cleared. At least one field; the request keeps at least one change or plan.
 */
export const UpdateChangeRequestInput = Schema.Struct({
  title: Schema.optional(Title),
  description: Schema.optional(Schema.NullOr(Description)),
  changes: Schema.optional(Changes),
  releasePlans: Schema.optional(PlanChangeInputs),
  applyAt: Schema.optional(Schema.NullOr(ScheduleTime))
}).annotations({
  ...documentName("UpdateChangeRequestInput"),
  examples: [{
    title: "Turn the new checkout on in production, off by default",
    changes: [{ flagKey: "new-checkout", targeting: { enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [] } }]
  }]
})
export type UpdateChangeRequestInput = typeof UpdateChangeRequestInput.Type

export const ApproveInput = Schema.Struct({
  comment: Schema.optional(Description)
}).annotations({ ...documentName("ApproveChangeRequestInput"), examples: [{ comment: "Checked with the support team" }] })
export type ApproveInput = typeof ApproveInput.Type

/** A rejection's reason: required, so it must say something. */
const Reason = Description.pipe(Schema.pattern(/\S/, { message: () => "must say why it is rejected (not blank)" }))

export const RejectInput = Schema.Struct({
  comment: Reason
}).annotations({ ...documentName("RejectChangeRequestInput"), examples: [{ comment: "Not before the holiday sale" }] })
export type RejectInput = typeof RejectInput.Type

/** Who an actor is, for "the author" and "once per person": a person, a key, or the operator. */
export const actorIdentity = (actor: Actor): string =>
  actor.userId !== undefined ? `user:${actor.userId}` : actor.keyId !== undefined ? `key:${actor.keyId}` : actor.type

/** The duplicates of `changes` (a flag named twice), as problems at their paths. */
export const duplicateFlags = (changes: ReadonlyArray<ChangeInput>) => {
  const seen = new Set<string>()
  return changes.flatMap((change, index) => {
    if (!seen.has(change.flagKey)) {
      seen.add(change.flagKey)
      return []
    }
    return [{ path: `changes[${index}].flagKey`, message: `names flag '${change.flagKey}' a second time` }]
  })
}
