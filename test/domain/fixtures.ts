/** Builders for domain tests: small flags and snapshots with sensible defaults. */
import type { ConfigSnapshot, SnapshotFlag, SnapshotSegment } from "../../src/domain/evaluation/ConfigSnapshot.js"
import type { Condition, Rule } from "../../src/domain/definitions/Targeting.js"

export const booleanFlag = (overrides: Partial<SnapshotFlag> = {}): SnapshotFlag => ({
  key: "flag",
  type: "boolean",
  enabled: true,
  variations: [
    { key: "on", value: true },
    { key: "off", value: false }
  ],
  defaultVariationKey: "off",
  offVariationKey: "off",
  rules: [],
  ...overrides
})

export const snapshot = (flags: ReadonlyArray<SnapshotFlag>, segments: ReadonlyArray<SnapshotSegment> = []): ConfigSnapshot => ({
  environment: "production",
  flags,
  segments
})

/** A boolean flag serving `on` when `condition` holds (rule "r"), `off` otherwise. */
export const flagWithCondition = (condition: Condition): SnapshotFlag =>
  booleanFlag({ rules: [{ id: "r", conditions: [condition], variationKey: "on" } satisfies Rule] })
