/** Which flags a new configuration changes: by version when both sides have one, else deeply; segments reach their flags. */
import { describe, expect, it } from "@effect/vitest"
import { changedKeys } from "../../adapters/client/ChangedKeys.js"
import type { ConfigSnapshot, SnapshotFlag } from "../../src/domain/evaluation/ConfigSnapshot.js"

const flag = (key: string, overrides: Partial<SnapshotFlag> & { version?: number } = {}): SnapshotFlag => ({
  key,
  type: "boolean",
  enabled: true,
  variations: [
    { key: "on", value: true },
    { key: "off", value: false }
  ],
  defaultVariationKey: "on",
  offVariationKey: "off",
  rules: [],
  ...overrides
})
const config = (flags: ReadonlyArray<SnapshotFlag>, segments: ConfigSnapshot["segments"] = []): ConfigSnapshot => ({ environment: "production", flags, segments })
const inBeta = { id: "r", conditions: [{ operator: "inSegment" as const, values: ["beta"] }], variationKey: "on" }

describe("changedKeys", () => {
  it("added, removed and modified flags (deep comparison without versions)", () => {
    const before = config([flag("same"), flag("edited"), flag("gone")])
    const after = config([flag("same"), flag("edited", { enabled: false }), flag("new")])
    expect(changedKeys(before, after)).toEqual(["edited", "new", "gone"])
    expect(changedKeys(before, before)).toEqual([])
  })

  it("trusts versions when both sides carry one", () => {
    const before = config([flag("a", { version: 1 }), flag("b", { version: 4 })])
    // b's body differs but its version does not: the server says it is the same flag version.
    expect(changedKeys(before, config([flag("a", { version: 2 }), flag("b", { version: 4, enabled: false })]))).toEqual(["a"])
    // Mixed: one side without version, compared deeply.
    expect(changedKeys(config([flag("a")]), config([flag("a", { version: 1 })]))).toEqual(["a"])
  })

  it("a segment change reaches the flags whose rules use it", () => {
    const before = config([flag("uses", { rules: [inBeta], version: 3 }), flag("other", { version: 1 })], [{ key: "beta", conditions: [] }])
    const after = config([flag("uses", { rules: [inBeta], version: 3 }), flag("other", { version: 1 })], [
      { key: "beta", conditions: [{ attribute: "plan", operator: "in", values: ["pro"] }] }
    ])
    expect(changedKeys(before, after)).toEqual(["uses"])
  })
})
