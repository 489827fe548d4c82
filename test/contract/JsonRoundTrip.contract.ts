import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { Flags } from "../../src/services/flags/Flags.js"
import { Segments } from "../../src/services/segments/Segments.js"
import { Snapshots } from "../../src/services/evaluation/Snapshots.js"
import { type Contract, givenProject } from "./Backend.js"

/** JSON values that storage engines like to mangle: big integers, tiny decimals, unicode, nesting. */
export const awkwardValues: ReadonlyArray<unknown> = [
  { nested: { deeper: { list: [1, "two", { three: [null, true, false] }] } }, empty: {}, emptyList: [] },
  [1, [2, [3, [4, []]]], { a: null }],
  null,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  1e-7,
  0.1 + 0.2,
  1.7976931348623157e308,
  5e-324,
  "héllo wörld — ünïcödé ✓ 日本語 한국어 עברית",
  "emoji 🚀🎉👩‍👩‍👧‍👦🏳️‍🌈",
  "quotes \" and \\ backslashes, \n newlines, \t tabs, \u0000 nul, \u2028 separators",
  "",
  0,
  { "key with spaces": 1, "ключ": "значение", "🔑": "🗝️" }
]

export const jsonContract: Contract = (it) => {
  it.effect("JSON variation values round-trip exactly through create, get, list, targeting and snapshots", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const snapshots = yield* Snapshots
      const projectId = yield* givenProject("development")
      const variations = awkwardValues.map((value, i) => ({ key: `v${i}`, value, name: `Variation ${i} ✓` }))
      const created = yield* flags.create(projectId, { key: "json", type: "json", description: "desc 🚀", variations })
      const read = yield* flags.get(projectId, "json")
      expect(read).toEqual(created)
      read.variations.forEach((v, i) => {
        expect(v.value).toStrictEqual(awkwardValues[i])
        if (typeof awkwardValues[i] === "number") expect(Object.is(v.value, awkwardValues[i])).toBe(true)
      })
      expect(read.description).toBe("desc 🚀")
      expect((yield* flags.list(projectId))[0]!.variations).toStrictEqual(variations)
      const rules = [
        {
          id: "rule.unicode-1",
          name: "naïve ✓",
          conditions: [
            { attribute: "größe", operator: "in" as const, values: awkwardValues },
            { attribute: "n", operator: "gt" as const, values: [1e-7, Number.MAX_SAFE_INTEGER], negate: true },
            { anyOf: [[{ attribute: "ünï", operator: "in" as const, values: awkwardValues }], [{ attribute: "n", operator: "lt" as const, values: [5e-324], negate: true }]] }
          ],
          variationKey: "v3"
        }
      ]
      yield* flags.replaceTargeting(projectId, "json", {
        environment: "development",
        enabled: true,
        defaultVariationKey: "v0",
        offVariationKey: "v1",
        rules
      })
      expect((yield* flags.get(projectId, "json")).configs[0]!.rules).toStrictEqual(rules)
      const { snapshot } = yield* snapshots.snapshot(projectId, "development")
      expect(snapshot.flags[0]!.variations).toStrictEqual(variations)
      expect(snapshot.flags[0]!.rules).toStrictEqual(rules)
    }))

  it.effect("segment conditions, groups (anyOf) among them, round-trip exactly", () =>
    Effect.gen(function* () {
      const segments = yield* Segments
      const projectId = yield* givenProject()
      const conditions = [
        { attribute: "tags", operator: "in" as const, values: awkwardValues },
        { anyOf: [[{ attribute: "tags", operator: "in" as const, values: awkwardValues }], [{ attribute: "n", operator: "exists" as const, values: [] }]] }
      ]
      yield* segments.create(projectId, { key: "odd", name: "Ödd 🚀", description: "ünïcödé", conditions })
      const read = yield* segments.get(projectId, "odd")
      expect(read.conditions).toStrictEqual(conditions)
      expect((yield* segments.list(projectId)).find((s) => s.key === "odd")!.conditions).toStrictEqual(conditions)
      expect(read.name).toBe("Ödd 🚀")
    }))
}
