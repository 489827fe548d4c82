/**
 * Flag-level writes that still change what a protected environment serves
 * (domain/changes/Protection.ts, `sharedWrite`), as a table: a flag deleted, its variations
 * patched every way, a segment changed that some environment's targeting names or none does,
 * for a person, a person's schedule, a server key and the CLI.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import type { Actor } from "../../../src/domain/audit/Actor.js"
import { changeRequestRequiredMessage, type GuardedEnvironment, sharedWrite, type SharedWrite } from "../../../src/domain/changes/Protection.js"
import { disabledConfig, type Variation } from "../../../src/domain/definitions/Flag.js"
import type { EnvironmentConfig } from "../../../src/domain/definitions/Targeting.js"

const WRITERS: Record<string, Actor> = {
  person: { type: "user", userId: "u1", email: "edna@example.com" },
  personSchedule: { type: "schedule", userId: "u1", email: "edna@example.com" },
  serverKey: { type: "key", keyId: "k1", keyName: "deploy" },
  cli: { type: "cli" }
}

const VARIATIONS: ReadonlyArray<Variation> = [{ key: "on", value: { color: "red", size: 1 } }, { key: "off", value: false }]

const usingSegment = (environmentKey: string, segmentKey: string): EnvironmentConfig => ({
  ...disabledConfig(environmentKey, VARIATIONS),
  rules: [{ id: "r1", conditions: [{ operator: "inSegment", values: [segmentKey] }], variationKey: "on" }]
})

/** Flags whose only segment use is in `environmentKey`. */
const flagsUsing = (environmentKey: string) => [
  { configs: [disabledConfig("development", VARIATIONS), disabledConfig("staging", VARIATIONS), disabledConfig("production", VARIATIONS)] },
  { configs: [disabledConfig("development", VARIATIONS), usingSegment(environmentKey, "beta")] }
]

const WRITES: Record<string, SharedWrite> = {
  deleteFlag: { _tag: "DeleteFlag" },
  renameOnly: { _tag: "PatchVariations", before: VARIATIONS, after: undefined },
  sameVariations: { _tag: "PatchVariations", before: VARIATIONS, after: [{ key: "on", value: { size: 1, color: "red" } }, { key: "off", value: false }] },
  addVariation: { _tag: "PatchVariations", before: VARIATIONS, after: [...VARIATIONS, { key: "maybe", value: 3 }] },
  reorderVariations: { _tag: "PatchVariations", before: VARIATIONS, after: [VARIATIONS[1]!, VARIATIONS[0]!] },
  renameVariation: { _tag: "PatchVariations", before: VARIATIONS, after: [{ ...VARIATIONS[0]!, name: "On" }, VARIATIONS[1]!] },
  changeValue: { _tag: "PatchVariations", before: VARIATIONS, after: [{ key: "on", value: { color: "blue", size: 1 } }, VARIATIONS[1]!] },
  removeVariation: { _tag: "PatchVariations", before: VARIATIONS, after: [VARIATIONS[0]!] },
  segmentInProduction: { _tag: "WriteSegment", segmentKey: "beta", flags: flagsUsing("production") },
  segmentInStaging: { _tag: "WriteSegment", segmentKey: "beta", flags: flagsUsing("staging") },
  segmentInDevelopment: { _tag: "WriteSegment", segmentKey: "beta", flags: flagsUsing("development") },
  otherSegment: { _tag: "WriteSegment", segmentKey: "gamma", flags: flagsUsing("production") }
}

/** Project order: development, staging, production. */
const environments = (...protectedKeys: ReadonlyArray<string>): ReadonlyArray<GuardedEnvironment> =>
  ["development", "staging", "production"].map((key) => ({ key, protected: protectedKeys.includes(key) }))

// write, writer, protected environments, expected (true = allowed, else the environment named)
const TABLE: ReadonlyArray<readonly [keyof typeof WRITES, keyof typeof WRITERS, ReadonlyArray<string>, true | string]> = [
  ["deleteFlag", "person", [], true],
  ["deleteFlag", "person", ["production"], "production"],
  ["deleteFlag", "person", ["staging", "production"], "staging"],
  ["deleteFlag", "personSchedule", ["production"], "production"],
  ["deleteFlag", "serverKey", ["production"], true],
  ["deleteFlag", "cli", ["production"], true],
  ["renameOnly", "person", ["production"], true],
  ["sameVariations", "person", ["production"], true],
  ["addVariation", "person", ["production"], true],
  ["reorderVariations", "person", ["production"], true],
  ["renameVariation", "person", ["production"], true],
  ["changeValue", "person", [], true],
  ["changeValue", "person", ["production"], "production"],
  ["changeValue", "serverKey", ["production"], true],
  ["changeValue", "cli", ["production"], true],
  ["removeVariation", "person", ["production"], "production"],
  ["removeVariation", "person", [], true],
  ["removeVariation", "serverKey", ["production"], true],
  ["segmentInProduction", "person", ["production"], "production"],
  ["segmentInProduction", "person", ["staging"], true],
  ["segmentInProduction", "person", ["staging", "production"], "production"],
  ["segmentInStaging", "person", ["staging", "production"], "staging"],
  ["segmentInDevelopment", "person", ["staging", "production"], true],
  ["segmentInProduction", "personSchedule", ["production"], "production"],
  ["segmentInProduction", "serverKey", ["production"], true],
  ["segmentInProduction", "cli", ["production"], true],
  ["otherSegment", "person", ["development", "staging", "production"], true]
]

describe("sharedWrite", () => {
  it.each(TABLE)("%s by %s, protected %j: %s", (write, writer, protectedKeys, expected) => {
    const decision = sharedWrite(WRITERS[writer]!, environments(...protectedKeys), WRITES[write]!)
    expect(Either.isRight(decision) ? true : decision.left.message).toEqual(expected === true ? true : changeRequestRequiredMessage(expected))
  })

  it("refuses with the same error as a direct write", () => {
    const decision = sharedWrite(WRITERS.person!, environments("production"), WRITES.deleteFlag!)
    expect(Either.isLeft(decision) && { tag: decision.left._tag, message: decision.left.message }).toEqual({
      tag: "ChangeRequestRequired",
      message: "Changes to production need an approved change request"
    })
  })
})
