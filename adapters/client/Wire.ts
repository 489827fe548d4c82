/**
 * The configuration (`GET /v1/config`) and an evaluation result, as plain TypeScript types. The
 * core derives the same types from its Effect schemas; the client's public types must not, or
 * its declaration files would import `effect`, which an application of `@flagport/client` does not
 * have. WireCheck.ts fails to compile when these and the schemas' types drift apart.
 */
import type { OperatorName } from "../../src/domain/conditions/OperatorTable.js"

export interface Condition {
  /** The context attribute read (`key` for the context key); absent for segment operators. */
  readonly attribute?: string | undefined
  readonly operator: OperatorName
  readonly values: ReadonlyArray<unknown>
  readonly negate?: boolean | undefined
}

/** A group: matches when every condition of at least one of its lists matches (groups do not nest). */
export interface ConditionGroup {
  readonly anyOf: ReadonlyArray<ReadonlyArray<Condition>>
}

/** An item of a rule's or a segment's conditions: a group when it has `anyOf`. */
export type ConditionOrGroup = Condition | ConditionGroup

export interface Rollout {
  readonly bucketBy?: string | undefined
  readonly seed?: string | undefined
  /** Weights in thousandths of a percent (100 000 in all). */
  readonly variations: ReadonlyArray<{ readonly variationKey: string; readonly weight: number }>
}

export interface Rule {
  readonly id: string
  readonly name?: string | undefined
  readonly conditions: ReadonlyArray<ConditionOrGroup>
  /** Exactly one of `variationKey` and `rollout`. */
  readonly variationKey?: string | undefined
  readonly rollout?: Rollout | undefined
}

/** One flag as the client evaluates it: its definition merged with one environment's configuration. */
export interface SnapshotFlag {
  readonly key: string
  readonly type: "boolean" | "string" | "number" | "json"
  readonly enabled: boolean
  readonly variations: ReadonlyArray<{ readonly key: string; readonly value: unknown; readonly name?: string | undefined }>
  readonly defaultVariationKey: string
  readonly offVariationKey: string
  readonly prerequisites?: ReadonlyArray<{ readonly flagKey: string; readonly variationKey: string }> | undefined
  readonly rules: ReadonlyArray<Rule>
  /** Sent by the server; optional in hand-written configurations (bootstrap files, tests). */
  readonly version?: number | undefined
}

/** A segment's key list as the configuration names it: never its keys (the client downloads their hashes apart). */
export interface SnapshotKeyList {
  readonly version: number
  readonly count: number
  /** The salt of the list's hashes (sent by the server; absent from hand-written configurations, whose lists cannot be loaded). */
  readonly salt?: string | undefined
}

export interface SnapshotSegment {
  readonly key: string
  readonly conditions: ReadonlyArray<ConditionOrGroup>
  readonly included?: SnapshotKeyList | undefined
  readonly excluded?: SnapshotKeyList | undefined
}

/** A rule a running experiment measures: the client sends the exposures of what it served by it. */
export interface SnapshotExperiment {
  readonly flagKey: string
  readonly ruleId: string
}

/** The body of `GET /v1/config`: everything needed to evaluate one environment in process. */
export interface ConfigSnapshot {
  readonly environment: string
  readonly flags: ReadonlyArray<SnapshotFlag>
  readonly segments: ReadonlyArray<SnapshotSegment>
  /** The measured rules; absent when none (or from a server before experiments). */
  readonly experiments?: ReadonlyArray<SnapshotExperiment> | undefined
}

export interface Reason {
  readonly kind: "OFF" | "FALLTHROUGH" | "RULE_MATCH" | "PREREQUISITE_FAILED" | "ERROR"
  readonly ruleId?: string | undefined
  readonly ruleIndex?: number | undefined
  /** With PREREQUISITE_FAILED: the first prerequisite flag that did not serve the named variation. */
  readonly prerequisiteKey?: string | undefined
  readonly error?: string | undefined
}

/** `variationKey` is null only for an ERROR result whose off variation does not exist either. */
export interface EvaluationResult {
  readonly flagKey: string
  readonly value: unknown
  readonly variationKey: string | null
  readonly reason: Reason
}
