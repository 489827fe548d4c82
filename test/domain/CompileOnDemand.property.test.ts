/**
 * `compileOnDemand` (each flag compiled when first evaluated) answers exactly as `compile` (all at
 * once), whatever the order flags are evaluated in, prerequisites (cycles included) and broken
 * definitions included; and it compiles nothing before a flag is asked for.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import type { ConfigSnapshot, SnapshotFlag } from "../../src/domain/evaluation/ConfigSnapshot.js"
import { PENDING, settle } from "../../src/domain/evaluation/Compile.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import type { Prerequisite } from "../../src/domain/definitions/Targeting.js"
import { contextArbitrary } from "./arbitraries.js"
import { graphFlags, KEYS, prerequisiteArbitrary, withPrerequisites } from "./prerequisiteArbitraries.js"

/** Five boolean flags whose prerequisites form any graph (cycles, self loops, missing flags). */
const graphs: fc.Arbitrary<ConfigSnapshot> = graphFlags.map((flags) => ({ environment: "production", flags, segments: [] }))

/** Flags whose fields are anything at all (a definition written by hand into the database). */
const garbage: fc.Arbitrary<ConfigSnapshot> = fc
  .array(
    fc.record(
      {
        key: fc.constantFrom(...KEYS),
        type: fc.oneof(fc.constantFrom("boolean", "string"), fc.anything()),
        enabled: fc.oneof(fc.boolean(), fc.anything()),
        variations: fc.oneof(fc.constant([{ key: "on", value: true }, { key: "off", value: false }]), fc.anything()),
        defaultVariationKey: fc.oneof(fc.constantFrom("on", "off"), fc.anything()),
        offVariationKey: fc.oneof(fc.constant("off"), fc.anything()),
        prerequisites: fc.oneof(fc.array(prerequisiteArbitrary(["on", "off"]), { maxLength: 2 }), fc.anything()),
        rules: fc.oneof(fc.constant([]), fc.anything())
      },
      { requiredKeys: ["key"] }
    ),
    { maxLength: 6 }
  )
  .map((flags) => ({ environment: "production", flags: flags as unknown as ReadonlyArray<SnapshotFlag>, segments: [] }))

const snapshots = fc.oneof(withPrerequisites, graphs, garbage)

/** The snapshot's keys (and one it lacks) in a random order, some asked twice. */
const orderOf = (snapshot: ConfigSnapshot) =>
  fc.shuffledSubarray([...snapshot.flags.map((f) => f.key), "missing", ...snapshot.flags.map((f) => f.key)])

describe("compileOnDemand", () => {
  it.prop(
    "answers as compile for every flag, in any order of evaluation, explain included",
    [snapshots.chain((s) => fc.tuple(fc.constant(s), orderOf(s))), contextArbitrary],
    ([[snapshot, order], context]) => {
      const eager = Evaluate.compile(snapshot)
      const lazy = Evaluate.compileOnDemand(snapshot)
      expect(lazy.keys).toEqual(eager.keys)
      for (const key of order) {
        expect(Evaluate.evaluate(lazy, key, context)).toEqual(Evaluate.evaluate(eager, key, context))
        expect(Evaluate.explain(lazy, key, context)).toEqual(Evaluate.explain(eager, key, context))
      }
      // A fresh one, all at once (the evaluateAll record and evaluateEach).
      expect(Evaluate.evaluateAll(Evaluate.compileOnDemand(snapshot), context)).toEqual(Evaluate.evaluateAll(eager, context))
      const each: Array<unknown> = []
      Evaluate.evaluateEach(Evaluate.compileOnDemand(snapshot).ordered, context, (flag, result) => each.push([flag.key, result]))
      expect(each).toEqual(eager.ordered.map((flag) => [flag.key, Evaluate.evaluate(eager, flag.key, context)]))
    },
    { fastCheck: { numRuns: 300 } }
  )

  it.prop(
    "a settled flag holds what compile made of it",
    [snapshots],
    ([snapshot]) => {
      const eager = Evaluate.compile(snapshot)
      const lazy = Evaluate.compileOnDemand(snapshot)
      for (const key of [...lazy.keys].reverse()) {
        const flag = settle(lazy.flags.get(key)!)
        const want = eager.flags.get(key)!
        expect(flag.broken).not.toBe(PENDING)
        expect([flag.enabled, flag.off, flag.fallthrough, flag.broken, flag.invalidContext]).toEqual([want.enabled, want.off, want.fallthrough, want.broken, want.invalidContext])
        expect(flag.rules.map((r) => r.id)).toEqual(want.rules.map((r) => r.id))
        expect(flag.prerequisites.map((p) => [p.flagKey, p.variationKey, p.flag?.key, p.failed])).toEqual(
          want.prerequisites.map((p) => [p.flagKey, p.variationKey, p.flag?.key, p.failed])
        )
      }
    },
    { fastCheck: { numRuns: 300 } }
  )

  it("compiles nothing until a flag is evaluated, then that flag and the flags it requires", () => {
    const flag = (key: string, prerequisites: ReadonlyArray<Prerequisite>): SnapshotFlag => ({
      key,
      type: "boolean",
      enabled: true,
      variations: [
        { key: "on", value: true },
        { key: "off", value: false }
      ],
      defaultVariationKey: "on",
      offVariationKey: "off",
      prerequisites,
      rules: []
    })
    const lazy = Evaluate.compileOnDemand({
      environment: "production",
      flags: [flag("a", [{ flagKey: "b", variationKey: "on" }]), flag("b", []), flag("c", [])],
      segments: []
    })
    const pending = () => lazy.keys.filter((key) => lazy.flags.get(key)!.broken === PENDING)
    expect(pending()).toEqual(["a", "b", "c"])
    expect(Evaluate.evaluate(lazy, "c", { key: "u" }).reason).toEqual({ kind: "FALLTHROUGH" })
    expect(pending()).toEqual(["a", "b"])
    expect(Evaluate.evaluate(lazy, "a", { key: "u" }).reason).toEqual({ kind: "FALLTHROUGH" })
    expect(pending()).toEqual([])
  })
})
