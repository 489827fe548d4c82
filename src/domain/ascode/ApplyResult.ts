/**
 * What an apply answers (`POST /v1/projects/{p}/apply`, `flagport apply --json`): the plan, each
 * change with the item before and after in the file's shape, whether it was applied, and the
 * change requests it opened for targeting in protected environments.
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"

export const PlannedChangeSchema = Schema.Struct({
  resource: Schema.Literal("project", "environment", "segment", "flag", "targeting"),
  action: Schema.Literal("create", "update", "delete"),
  key: Schema.String.annotations({ description: "The project's id, or the environment's, segment's or flag's key (targeting: the flag's)." }),
  environment: Schema.optional(Schema.String.annotations({ description: "Targeting: its environment." })),
  before: Schema.Unknown.annotations({ description: "The item now, in the file's shape (null when created)." }),
  after: Schema.Unknown.annotations({ description: "The item as the file wants it (null when deleted)." }),
  basedOn: Schema.optional(Schema.Union(Schema.Number, Schema.String).annotations({
    description: "What the change is based on, checked again when it is applied: the flag's version, or the segment's updatedAt."
  })),
  changeRequest: Schema.optional(Schema.Boolean.annotations({
    description: "Targeting in a protected environment changed by a person: proposed as a change request instead of written."
  }))
}).annotations(documentName("PlannedChange"))

export const OpenedChangeRequest = Schema.Struct({
  id: Schema.String,
  environment: Schema.String,
  flagKeys: Schema.Array(Schema.String)
}).annotations(documentName("OpenedChangeRequest"))
export type OpenedChangeRequest = typeof OpenedChangeRequest.Type

export const ApplyResult = Schema.Struct({
  projectId: Schema.String,
  dryRun: Schema.Boolean,
  applied: Schema.Boolean.annotations({ description: "Whether the changes were written (false for a dry run or when there was nothing to do)." }),
  summary: Schema.Struct({ create: Schema.Number, update: Schema.Number, delete: Schema.Number }),
  changes: Schema.Array(PlannedChangeSchema),
  changeRequests: Schema.Array(OpenedChangeRequest)
}).annotations(documentName("ApplyResult"))
export type ApplyResult = typeof ApplyResult.Type
