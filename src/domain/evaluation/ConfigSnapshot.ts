import * as Schema from "effect/Schema"
import { FlagType, Variation } from "../definitions/Flag.js"
import { ConditionOrGroup } from "../definitions/Condition.js"
import { Prerequisite, Rule } from "../definitions/Targeting.js"
import { documentName } from "../DocumentName.js"

/** One flag as a local evaluator sees it in `GET /v1/config`: its definition merged with one environment's configuration. */
export const SnapshotFlag = Schema.Struct({
  key: Schema.String,
  type: FlagType,
  enabled: Schema.Boolean,
  variations: Schema.Array(Variation),
  defaultVariationKey: Schema.String,
  offVariationKey: Schema.String,
  /** Always sent by the server; absent (an older server or a hand-written configuration) means none. */
  prerequisites: Schema.optional(Schema.Array(Prerequisite)),
  rules: Schema.Array(Rule),
  /**
   * The flag's version as of the last change to what this environment serves (its configuration
   * or the flag's variations; ConfigVersion.ts), so a client can tell which flags changed between
   * two configurations and an unchanged environment serves the same bytes everywhere. The server always sends it; optional for configurations
   * written by hand (bootstrap files, tests), which evaluate the same without it.
   */
  version: Schema.optional(Schema.Number)
}).annotations(documentName("ConfigFlag"))
export type SnapshotFlag = typeof SnapshotFlag.Type

/** A segment's key list as the configuration names it: its version and size, never its keys. */
export const SnapshotKeyList = Schema.Struct({
  version: Schema.Number.annotations({ description: "The list's version: one more at each replace or change of its keys." }),
  count: Schema.Number.annotations({ description: "How many keys the list holds." }),
  salt: Schema.optional(Schema.String).annotations({
    description:
      "The salt of the list's hashes (the same for every version of the list; another segment made under the same key has another): an SDK downloads the hashes from `GET /v1/config/segments/{segmentKey}/{list}` and hashes the key it looks up with it."
  })
}).annotations(documentName("ConfigKeyList"))
export type SnapshotKeyList = typeof SnapshotKeyList.Type

export const SnapshotSegment = Schema.Struct({
  key: Schema.String,
  conditions: Schema.Array(ConditionOrGroup),
  /**
   * Present when the segment has an `included` list (one ever written, even emptied since): the
   * key read is in when listed, and a segment with lists and no conditions matches only those keys.
   * Absent: no list, the conditions alone decide (as before lists existed).
   */
  included: Schema.optional(SnapshotKeyList),
  /** Present when the segment has an `excluded` list: the key read is out when listed (unless `included` lists it). */
  excluded: Schema.optional(SnapshotKeyList),
  keyAttribute: Schema.optional(Schema.String).annotations({
    description: "The context attribute the key lists match, when it is not the context key (absent: `key`)."
  })
}).annotations(documentName("ConfigSegment"))
export type SnapshotSegment = typeof SnapshotSegment.Type

/**
 * A rule a running experiment measures: an SDK that evaluates in process sends the exposures of
 * what it served by that rule (and only those). Nothing else of the experiment is sent: client
 * keys read this configuration too.
 */
export const SnapshotExperiment = Schema.Struct({
  flagKey: Schema.String,
  ruleId: Schema.String
}).annotations(documentName("ConfigExperiment"))
export type SnapshotExperiment = typeof SnapshotExperiment.Type

/** The body of `GET /v1/config`: everything needed to evaluate one environment in process. */
export const ConfigSnapshot = Schema.Struct({
  environment: Schema.String,
  flags: Schema.Array(SnapshotFlag),
  segments: Schema.Array(SnapshotSegment),
  /**
   * The rules of this environment that running experiments measure; sent only when there is one
   * (absent: none, as from a server before experiments or a hand-written configuration).
   */
  experiments: Schema.optional(Schema.Array(SnapshotExperiment))
}).annotations(documentName("ConfigSnapshot"))
export type ConfigSnapshot = typeof ConfigSnapshot.Type
