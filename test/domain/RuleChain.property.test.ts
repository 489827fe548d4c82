/**
 * A hot flag's generated rule chain (jit/RuleChain.ts) answers what the evaluator's walk of the
 * compiled rules answers: the same result object, for any snapshot and context, for names and
 * values awkward in source text, for large value sets, absent and inherited names, and contexts whose
 * reads throw. The walk answers for a flag not yet hot (and for explain), so each comparison is
 * between a fresh compile (walked) and one whose flags were made hot first.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import type { ConfigSnapshot, SnapshotFlag } from "../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import { checkCondition, type LocalContext } from "../../src/domain/evaluation/Evaluator.js"
import * as RuleChain from "../../src/domain/evaluation/jit/RuleChain.js"
import type { KeyListSource } from "../../src/domain/evaluation/CompileSegments.js"
import { KeySet } from "../../src/domain/evaluation/KeySet.js"
import { contextArbitrary, snapshotArbitrary } from "./arbitraries.js"

/** The snapshot compiled with every flag's chain made, as the evaluator makes it for a hot flag. */
const hot = (snapshot: ConfigSnapshot, keyLists?: KeyListSource): Evaluate.CompiledSnapshot => {
  const compiled = Evaluate.compile(snapshot, keyLists)
  for (const flag of compiled.ordered) flag.chain = flag.rules.length === 0 ? null : RuleChain.make(flag.rules, checkCondition)
  return compiled
}

/** Every flag evaluated walked and chained: the same result, and a chain made for every flag with rules. */
const agrees = (snapshot: ConfigSnapshot, context: LocalContext, keyLists?: KeyListSource) => {
  const walked = Evaluate.compile(snapshot, keyLists)
  const chained = hot(snapshot, keyLists)
  for (const key of walked.keys) {
    const expected = Evaluate.evaluate(walked, key, context)
    expect(Evaluate.evaluate(chained, key, context)).toStrictEqual(expected)
    const flag = chained.flags.get(key)!
    if (flag.rules.length > 0) {
      expect(typeof flag.chain).toBe("function")
    }
    expect(walked.flags.get(key)!.chain).toBeUndefined()
    // The very result object the walk serves on the same compiled snapshot (explain walks), not a copy.
    if (expected.reason.kind !== "ERROR") expect(Evaluate.evaluate(chained, key, context)).toBe(Evaluate.explain(chained, key, context).result)
  }
}

const flag = (rules: SnapshotFlag["rules"], key = "f"): SnapshotFlag => ({
  key,
  type: "string",
  enabled: true,
  variations: [
    { key: "A", value: "a" },
    { key: "B", value: "b" }
  ],
  defaultVariationKey: "B",
  offVariationKey: "B",
  rules
})
const snapshotOf = (...flags: Array<SnapshotFlag>): ConfigSnapshot => ({ environment: "production", flags, segments: [] })

const awkward = ["", "\"", "'", "\\", "`", "${x}", "\u2028", "\u2029", "\ud800", 'a"];globalThis.pwned=1;//', "constructor", "__proto__", "toString", "0", "key"]

describe("a hot flag's rule chain", () => {
  it.prop(
    "serves what the walk serves, for any snapshot and context",
    [snapshotArbitrary, contextArbitrary],
    ([snapshot, context]) => agrees(snapshot, context),
    { fastCheck: { numRuns: 300 } }
  )

  it("reads awkward names and compares awkward values as the walk does", () => {
    const rules = awkward.flatMap((name, i) => [
      { id: `in-${i}`, conditions: [{ attribute: name, operator: "in" as const, values: [name, "x"] }], variationKey: "A" },
      { id: `ends-${i}`, conditions: [{ attribute: "s", operator: "endsWith" as const, values: [name === "" ? "-" : name] }], variationKey: "A" },
      { id: `roll-${i}`, conditions: [], rollout: { bucketBy: name, seed: name, variations: [{ variationKey: "A", weight: 30_000 }, { variationKey: "B", weight: 70_000 }] } }
    ])
    for (let i = 0; i < rules.length; i += 3) {
      const snapshot = snapshotOf(flag(rules.slice(i, i + 3)))
      for (const name of awkward) {
        for (const value of [name, "x", `${name}!`, `!${name}`, 7, [name], null, { nested: name }]) {
          agrees(snapshot, { key: "user-1", attributes: JSON.parse(JSON.stringify({ [name]: value, s: `pre${name}` })) })
        }
      }
      agrees(snapshot, { key: "user-1", attributes: {} })
      agrees(snapshot, { key: "user-1" })
    }
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined()
  })

  it("large value sets (a Set, a trie), negation, numbers and arrays, segment and group conditions", () => {
    const many = Array.from({ length: 12 }, (_, i) => `v${i}`)
    const snapshot: ConfigSnapshot = {
      environment: "production",
      flags: [
        flag([
          { id: "set", conditions: [{ attribute: "a", operator: "in", values: [...many, 3, true] }], variationKey: "A" },
          { id: "trie", conditions: [{ attribute: "a", operator: "endsWith", values: many }], variationKey: "A" },
          { id: "not", conditions: [{ attribute: "a", operator: "notIn", values: ["v1"], negate: true }], variationKey: "A" },
          { id: "num", conditions: [{ attribute: "n", operator: "gt", values: [2] }], variationKey: "A" },
          { id: "seg", conditions: [{ operator: "inSegment", values: ["s"] }], variationKey: "A" },
          { id: "any", conditions: [{ anyOf: [[{ attribute: "a", operator: "startsWith", values: ["x"] }], [{ attribute: "n", operator: "lt", values: [0] }]] }], variationKey: "A" },
          { id: "roll", conditions: [], rollout: { bucketBy: "n", variations: [{ variationKey: "A", weight: 50_000 }, { variationKey: "B", weight: 50_000 }] } }
        ])
      ],
      segments: [{ key: "s", conditions: [{ attribute: "a", operator: "contains", values: ["q"] }] }]
    }
    const values: Array<unknown> = [...many, "v1", "xv3", "zz", "q", "xq", 3, true, 1, 2.5, -1, [1, "v2"], ["zz"], [], null, Number.MAX_VALUE]
    for (const a of values) for (const n of [undefined, 1, 3, -2, "3", 1e21]) agrees(snapshot, { key: "k", attributes: n === undefined ? { a } : { a, n } })
  })

  it("segments of key lists (the one written out as its list's lookup, and the others), either operator, negated or not", () => {
    // Lists over keys k0..k5: included k0..k2, excluded k2..k4 (k2 in both: included wins); k5 in neither.
    const sets = new Map<string, KeySet>()
    const source: KeyListSource = (segment, list) => {
      const id = `${segment}/${list}`
      if (!sets.has(id)) sets.set(id, KeySet.fromKeys(id, list === "included" ? ["k0", "k1", "k2"] : ["k2", "k3", "k4"]))
      return sets.get(id)
    }
    const named = { version: 1, count: 3 }
    const segments: ConfigSnapshot["segments"] = [
      { key: "inc", conditions: [], included: named },
      { key: "exc", conditions: [], excluded: named },
      { key: "both", conditions: [], included: named, excluded: named },
      { key: "byId", conditions: [], included: named, excluded: named, keyAttribute: "id" },
      { key: "withRule", conditions: [{ attribute: "a", operator: "in", values: ["x"] }], included: named, excluded: named },
      { key: "plain", conditions: [{ attribute: "a", operator: "in", values: ["x"] }] }
    ]
    const names = [["inc"], ["exc"], ["both"], ["byId"], ["withRule"], ["inc", "plain"], ["exc", "byId"]]
    const rules = names.flatMap((values, i) =>
      (["inSegment", "notInSegment"] as const).flatMap((operator) =>
        [false, true].map((negate) => ({ id: `${i}-${operator}-${negate}`, conditions: [{ operator, values, negate }], variationKey: "A" }))
      )
    )
    const keys = ["k0", "k1", "k2", "k3", "k4", "k5", undefined]
    for (const rule of rules) {
      const snapshot: ConfigSnapshot = { environment: "production", flags: [flag([rule])], segments }
      for (const key of keys) {
        for (const id of [undefined, "k1", "k3", "k5", 7, null]) {
          for (const a of [undefined, "x"]) {
            const attributes = { ...(id === undefined ? {} : { id }), ...(a === undefined ? {} : { a }) }
            agrees(snapshot, (key === undefined ? { attributes } : { key, attributes }) as LocalContext, source)
          }
        }
      }
    }
  })

  it("a read that throws fails the evaluation as the walk's does, and a non-object context too", () => {
    const snapshot = snapshotOf(flag([{ id: "r", conditions: [{ attribute: "country", operator: "in", values: ["US"] }], variationKey: "A" }]))
    const throwing = { key: "k", attributes: Object.defineProperty({}, "country", { get: () => { throw new Error("no reading") }, enumerable: true }) }
    agrees(snapshot, throwing)
    for (const context of [null, 7, "k", { key: 7 }, { key: "k", attributes: [1] }, { key: "k", attributes: "x" }]) agrees(snapshot, context as unknown as LocalContext)
  })

  it("explain still walks the rules of a hot flag", () => {
    const snapshot = snapshotOf(flag([{ id: "r", conditions: [{ attribute: "country", operator: "in", values: ["US"] }], variationKey: "A" }]))
    const chained = hot(snapshot)
    const context = { key: "k", attributes: { country: "US" } }
    expect(Evaluate.evaluate(chained, "f", context).variationKey).toBe("A")
    expect(typeof chained.flags.get("f")!.chain).toBe("function")
    const explained = Evaluate.explain(chained, "f", context)
    expect(JSON.stringify(explained)).toContain("country")
  })

  it("a flag turns hot after HOT_AFTER evaluations, and flags turning hot together make their chains a few at a time", () => {
    const compiled = Evaluate.compile(snapshotOf(...Array.from({ length: 40 }, (_, i) => flag([{ id: "r", conditions: [{ attribute: "c", operator: "in", values: ["US"] }], variationKey: "A" }], `f${i}`))))
    const context = { key: "k", attributes: { c: "US" } }
    for (let i = 0; i < RuleChain.HOT_AFTER - 1; i++) Evaluate.evaluate(compiled, "f0", context)
    expect(compiled.flags.get("f0")!.chain).toBeUndefined()
    Evaluate.evaluate(compiled, "f0", context)
    expect(typeof compiled.flags.get("f0")!.chain).toBe("function")
    for (const f of compiled.ordered) f.runs = RuleChain.HOT_AFTER
    Evaluate.evaluateAll(compiled, context)
    const made = compiled.ordered.filter((f) => f.chain !== undefined).length
    expect(made).toBeGreaterThan(1)
    expect(made).toBeLessThan(20)
  })
})
