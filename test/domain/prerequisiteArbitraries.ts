/**
 * Arbitraries of flags with prerequisites, shared by the prerequisite and compile-on-demand
 * property tests: random prerequisites over the generated snapshots, and small graphs of boolean
 * flags whose prerequisites may form cycles, self loops or name missing flags.
 */
import { FastCheck as fc } from "effect"
import type { ConfigSnapshot, SnapshotFlag } from "../../src/domain/evaluation/ConfigSnapshot.js"
import type { Prerequisite } from "../../src/domain/definitions/Targeting.js"
import { snapshotArbitrary } from "./arbitraries.js"

export const KEYS = ["f0", "f1", "f2", "f3", "f4"] as const

export const prerequisiteArbitrary = (variations: ReadonlyArray<string>): fc.Arbitrary<Prerequisite> =>
  fc.record({ flagKey: fc.constantFrom(...KEYS, "ghost"), variationKey: fc.constantFrom(...variations, "bogus") })

/** The generated snapshots (flags with rules, rollouts and segments), each flag given random prerequisites among them. */
export const withPrerequisites: fc.Arbitrary<ConfigSnapshot> = snapshotArbitrary.chain((snap) =>
  fc
    .tuple(...snap.flags.map((f) => fc.array(prerequisiteArbitrary(f.variations.map((v) => v.key)), { maxLength: 3 })))
    .map((lists) => ({ ...snap, flags: snap.flags.map((f, i) => ({ ...f, prerequisites: lists[i]! })) }))
)

/** A boolean flag under `key` with up to three random prerequisites among KEYS. */
export const graphFlag = (key: string): fc.Arbitrary<SnapshotFlag> =>
  fc.record({
    key: fc.constant(key),
    type: fc.constant("boolean" as const),
    enabled: fc.boolean(),
    variations: fc.constant([
      { key: "on", value: true },
      { key: "off", value: false }
    ]),
    defaultVariationKey: fc.constantFrom("on", "off"),
    offVariationKey: fc.constant("off"),
    prerequisites: fc.array(prerequisiteArbitrary(["on", "off"]), { maxLength: 3 }),
    rules: fc.constant([])
  })

/** One to five such flags: their prerequisites form any graph (cycles, self loops, missing flags). */
export const graphFlags: fc.Arbitrary<ReadonlyArray<SnapshotFlag>> = fc
  .integer({ min: 1, max: KEYS.length })
  .chain((n) => fc.tuple(...KEYS.slice(0, n).map(graphFlag)))
