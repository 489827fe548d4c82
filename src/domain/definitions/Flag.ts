import * as Schema from "effect/Schema"
import { Key, Timestamp } from "./Ids.js"
import { EnvironmentConfig } from "./Targeting.js"
import { Text } from "./Text.js"
import { documentName } from "../DocumentName.js"

export const FlagType = Schema.Literal("boolean", "string", "number", "json")
export type FlagType = typeof FlagType.Type

/**
 * A variation's value is any JSON value on the wire; whether it agrees with the
 * flag's type is checked by `Validation`, so every problem is reported with its path.
 */
export const JsonValue = Schema.Unknown

export const Variation = Schema.Struct({
  key: Key,
  value: JsonValue,
  name: Schema.optional(Text)
}).annotations(documentName("Variation"))
export type Variation = typeof Variation.Type

/** A stored flag: the definition shared by the project plus one configuration per environment. */
export const Flag = Schema.Struct({
  id: Schema.String,
  key: Key,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  type: FlagType,
  variations: Schema.Array(Variation),
  configs: Schema.Array(EnvironmentConfig),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Schema.Number
}).annotations(documentName("Flag"))
export type Flag = typeof Flag.Type

/** Body of `POST /v1/projects/{projectId}/flags`. */
export const CreateFlagInput = Schema.Struct({
  key: Key,
  name: Schema.optional(Text),
  description: Schema.optional(Schema.NullOr(Text)),
  type: FlagType,
  variations: Schema.Array(Variation)
}).annotations(documentName("CreateFlagInput"))
export type CreateFlagInput = typeof CreateFlagInput.Type

/** Body of `PATCH /v1/projects/{projectId}/flags/{flagKey}`: send only what changes. */
export const PatchFlagInput = Schema.Struct({
  name: Schema.optional(Text),
  description: Schema.optional(Schema.NullOr(Text)),
  variations: Schema.optional(Schema.Array(Variation))
}).annotations(documentName("PatchFlagInput"))
export type PatchFlagInput = typeof PatchFlagInput.Type

/**
 * The configuration a flag gets in an environment it has never been configured for
 * (contract: disabled, default = first variation, off = last variation, no rules).
 */
export const disabledConfig = (environmentKey: string, variations: ReadonlyArray<Variation>): EnvironmentConfig => ({
  environmentKey,
  enabled: false,
  defaultVariationKey: variations[0]?.key ?? "",
  offVariationKey: variations[variations.length - 1]?.key ?? "",
  prerequisites: [],
  rules: []
})
