/**
 * What an apply answers (`POST /v1/projects/{p}/apply`, `flagport apply --json`): the plan, each
 * change with the item before and after in the file's shape, whether it was applied, the change
 * requests it opened or updated for targeting in protected environments, and the author's pending
 * ones that already propose the rest (PendingProposals.ts).
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"

export const PlannedChangeSchema = Schema.Struct({
  resource: Schema.Literal("project", "environment", "segment", "flag", "targeting", "release_plan"),
  action: Schema.Literal("create", "update", "delete"),
  key: Schema.String.annotations({ description: "The project's id, or the environment's, segment's or flag's key (targeting and release_plan: the flag's)." }),
  environment: Schema.optional(Schema.String.annotations({ description: "Targeting and release_plan: its environment." })),
  before: Schema.Unknown.annotations({ description: "The item now, in the file's shape (null when created)." }),
  after: Schema.Unknown.annotations({ description: "The item as the file wants it (null when deleted)." }),
  basedOn: Schema.optional(Schema.Union(Schema.Number, Schema.String).annotations({
    description: "What the change is based on, checked again when it is applied: the flag's version, the segment's updatedAt, or the release plan's version."
  })),
  releasePlanId: Schema.optional(Schema.String.annotations({
    description: "release_plan update or delete: the id of the draft plan it changes (a create makes a new draft)."
  })),
  changeRequest: Schema.optional(Schema.Boolean.annotations({
    description: "Targeting in a protected environment changed by a person: proposed as a change request instead of written."
  })),
  changeRequestId: Schema.optional(Schema.String.annotations({
    description: "Proposed: the author's pending change request (open or approved) that already names this flag in this environment, which this change updates (its approvals are cleared). Absent: a new change request is opened."
  }))
}).annotations(documentName("PlannedChange"))

export const OpenedChangeRequest = Schema.Struct({
  id: Schema.String,
  action: Schema.Literal("opened", "updated").annotations({
    description: "`opened`: a new change request; `updated`: the author's pending one for these flags, its changes replaced for them and its approvals cleared."
  }),
  environment: Schema.String,
  flagKeys: Schema.Array(Schema.String).annotations({ description: "The flags of the file this apply proposed in it." })
}).annotations(documentName("OpenedChangeRequest"))
export type OpenedChangeRequest = typeof OpenedChangeRequest.Type

export const PendingChangeRequest = Schema.Struct({
  id: Schema.String,
  environment: Schema.String,
  flagKeys: Schema.Array(Schema.String)
}).annotations({
  ...documentName("PendingChangeRequest"),
  description: "A pending change request of the author that already proposes the file's targeting of these flags, on their versions now: nothing to change for them; it awaits approval."
})

export const ApplyResult = Schema.Struct({
  projectId: Schema.String,
  dryRun: Schema.Boolean,
  applied: Schema.Boolean.annotations({ description: "Whether the changes were written (false for a dry run or when there was nothing to do)." }),
  summary: Schema.Struct({ create: Schema.Number, update: Schema.Number, delete: Schema.Number }),
  changes: Schema.Array(PlannedChangeSchema),
  changeRequests: Schema.Array(OpenedChangeRequest).annotations({ description: "The change requests this apply opened or updated (none for a dry run)." }),
  pendingChangeRequests: Schema.Array(PendingChangeRequest).annotations({
    description: "The author's pending change requests that already propose some of the file: applying the same file again opens nothing."
  }),
  fingerprint: Schema.String.annotations({
    description: "The plan's fingerprint (16 hex digits, a hash of its changes and the versions they are based on): `POST .../apply?plan=` with it applies exactly this plan, or refuses with 409 if the project moved since."
  })
}).annotations(documentName("ApplyResult"))
export type ApplyResult = typeof ApplyResult.Type
