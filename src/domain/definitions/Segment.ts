import * as Schema from "effect/Schema"
import { Key, Timestamp } from "./Ids.js"
import { ConditionOrGroup } from "./Condition.js"
import { Text } from "./Text.js"
import { documentName } from "../DocumentName.js"

/** The attribute a segment's key lists match when none is named: the context key. */
export const DEFAULT_KEY_ATTRIBUTE = "key"

/** A segment's `keyAttribute` as written (its rules: Validation.validateSegmentFields). */
const KeyAttribute = Text.annotations({
  description: "The context attribute the segment's key lists match (`key`, the context key, when not given); at most 256 characters."
})

export const Segment = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  key: Key,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  conditions: Schema.Array(ConditionOrGroup),
  keyAttribute: Schema.String.annotations({
    description:
      "The context attribute the segment's key lists match: `key` (the context key, the default) or the name of an attribute of `context.attributes` (an account id, a device id)."
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations(documentName("Segment"))
export type Segment = typeof Segment.Type

/** Body of `POST /v1/projects/{projectId}/segments`. */
export const CreateSegmentInput = Schema.Struct({
  key: Key,
  name: Text.pipe(Schema.minLength(1), Schema.maxLength(120)),
  description: Schema.optional(Schema.NullOr(Text.pipe(Schema.maxLength(500)))),
  conditions: Schema.Array(ConditionOrGroup),
  keyAttribute: Schema.optional(KeyAttribute)
}).annotations(documentName("CreateSegmentInput"))
export type CreateSegmentInput = typeof CreateSegmentInput.Type

/** Body of `PATCH /v1/projects/{projectId}/segments/{segmentKey}`. */
export const PatchSegmentInput = Schema.Struct({
  name: Schema.optional(Text.pipe(Schema.minLength(1), Schema.maxLength(120))),
  description: Schema.optional(Schema.NullOr(Text.pipe(Schema.maxLength(500)))),
  conditions: Schema.optional(Schema.Array(ConditionOrGroup)),
  keyAttribute: Schema.optional(KeyAttribute)
}).annotations(documentName("PatchSegmentInput"))
export type PatchSegmentInput = typeof PatchSegmentInput.Type
