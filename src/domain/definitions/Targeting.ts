import * as Schema from "effect/Schema"
import { ConditionOrGroup } from "./Condition.js"
import { Key } from "./Ids.js"
import { Text } from "./Text.js"
import { documentName } from "../DocumentName.js"

// Conditions and groups are defined in Condition.ts; re-exported where rules are.
export { Condition, ConditionGroup, ConditionOrGroup, Operator } from "./Condition.js"

/** One slice of a rollout; weights are thousandths of a percent (RolloutWeight.TOTAL_WEIGHT = 100%). */
export const WeightedVariation = Schema.Struct({
  variationKey: Schema.String,
  weight: Schema.Number
}).annotations(documentName("WeightedVariation"))
export type WeightedVariation = typeof WeightedVariation.Type

export const Rollout = Schema.Struct({
  bucketBy: Schema.optional(Schema.String),
  seed: Schema.optional(Schema.String),
  variations: Schema.Array(WeightedVariation)
}).annotations(documentName("Rollout"))
export type Rollout = typeof Rollout.Type

/** A rule as sent on PUT targeting: `id` is optional there (the server assigns one). */
export const RuleInput = Schema.Struct({
  id: Schema.optional(Text),
  name: Schema.optional(Text),
  conditions: Schema.Array(ConditionOrGroup),
  variationKey: Schema.optional(Schema.String),
  rollout: Schema.optional(Rollout)
}).annotations(documentName("RuleInput"))
export type RuleInput = typeof RuleInput.Type

/** A stored rule always has its id. Exactly one of `variationKey` and `rollout` is set. */
export const Rule = Schema.Struct({
  id: Schema.String,
  name: Schema.optional(Schema.String),
  conditions: Schema.Array(ConditionOrGroup),
  variationKey: Schema.optional(Schema.String),
  rollout: Schema.optional(Rollout)
}).annotations(documentName("Rule"))
export type Rule = typeof Rule.Type

/**
 * A flag this configuration depends on: evaluated in the same environment for the same context,
 * it must serve `variationKey`, else this flag serves its off variation (PREREQUISITE_FAILED).
 */
export const Prerequisite = Schema.Struct({
  flagKey: Schema.String,
  variationKey: Schema.String
}).annotations(documentName("Prerequisite"))
export type Prerequisite = typeof Prerequisite.Type

/**
 * The configuration of one flag in one environment. `prerequisites` is always present in what the
 * API and the storage return (`[]` when none); it is optional in the type so configurations made
 * before prerequisites existed (and literals in host code) stay valid: absent means none.
 */
export const EnvironmentConfig = Schema.Struct({
  environmentKey: Key,
  enabled: Schema.Boolean,
  defaultVariationKey: Schema.String,
  offVariationKey: Schema.String,
  prerequisites: Schema.optional(Schema.Array(Prerequisite)),
  rules: Schema.Array(Rule),
  /**
   * The configuration's own version (ConfigVersion.ts): the flag's version as of the last change
   * to what this environment serves. Storage sets it on every read and ignores it on writes
   * (it decides the version itself); absent only in a configuration being built for a write.
   */
  version: Schema.optional(Schema.Number.annotations({
    description: "This configuration's version: the flag's version as of the last change to this environment's targeting or to the flag's variations. Its `ETag` (GET .../targeting) is `\"<environmentKey>:<version>\"`."
  }))
}).annotations(documentName("Targeting"))
export type EnvironmentConfig = typeof EnvironmentConfig.Type

/** Body of `PUT /v1/projects/{projectId}/flags/{flagKey}/targeting`. */
export const TargetingInput = Schema.Struct({
  environment: Key,
  enabled: Schema.Boolean,
  defaultVariationKey: Schema.String,
  offVariationKey: Schema.String,
  /** Optional; absent means none (`[]`). */
  prerequisites: Schema.optional(Schema.Array(Prerequisite)),
  rules: Schema.Array(RuleInput)
}).annotations(documentName("TargetingInput"))
export type TargetingInput = typeof TargetingInput.Type
