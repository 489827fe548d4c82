/**
 * The round trip between backends: a project using every operator, segments, "any of these"
 * groups (in a rule and in a segment), rollouts and prerequisites is applied to an empty SQLite storage, exported, applied to an empty PostgreSQL
 * storage, exported again: the same bytes. And what the two serve agrees: in each environment,
 * every flag evaluated for 10,000 random contexts (fast-check) gives the same value, variation
 * and reason on both. The JSON export reads back as the same file as the YAML one.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import fc from "fast-check"
import { parseFile, printFile } from "../../src/domain/ascode/FileText.js"
import type { ConfigSnapshot } from "../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import { FlagsAsCode } from "../../src/services/ascode/FlagsAsCode.js"
import { Snapshots } from "../../src/services/evaluation/Snapshots.js"
import { freshStorage } from "../fixtures/databases.js"
import { richFile } from "./RichProject.js"

const ENVIRONMENTS = ["development", "production"]

/** Apply `input`, then answer the export's YAML and each environment's snapshot. */
const applyAndRead = (input: unknown) =>
  Effect.gen(function* () {
    const code = yield* FlagsAsCode
    const result = yield* code.apply("rich", input)
    expect(result.applied).toBe(true)
    const exported = yield* code.exportFile("rich")
    const yaml = printFile(exported, "yaml")
    const json = printFile(exported, "json")
    const snapshots = yield* Effect.forEach(ENVIRONMENTS, (environment) =>
      Effect.map(Effect.flatMap(Snapshots, (s) => s.snapshot("rich", environment)), (read) => read.snapshot))
    return { yaml, json, snapshots }
  })

/** Contexts that reach the file's rules: the attributes its conditions read, with values on both sides of each. */
const context = fc.record({
  key: fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom("user-1", "user-2", "acme")),
  attributes: fc.record({
    country: fc.constantFrom("FR", "DE", "US", "NL", "JP"),
    email: fc.oneof(fc.constantFrom("ann@example.com", "bob@staff.example", "zed@other.org", "carl@example.net"), fc.emailAddress()),
    age: fc.oneof(fc.integer({ min: 0, max: 90 }), fc.constant("old")),
    signup: fc.constantFrom("2023-06-01T00:00:00Z", "2024-06-01T00:00:00Z", "2025-06-01T00:00:00Z", 1_700_000_000_000),
    version: fc.constantFrom("0.9.0", "1.0.0", "1.2.3", "2.0.0", "2.1.0-beta.1", "not-a-version"),
    plan: fc.constantFrom("free", "pro", null),
    company: fc.constantFrom("acme", "globex", "initech")
  }, { requiredKeys: [] })
})

const results = (snapshot: ConfigSnapshot, compiled: Evaluate.CompiledSnapshot, ctx: Evaluate.LocalContext) => {
  const all = Evaluate.evaluateAll(compiled, ctx)
  return snapshot.flags.map((flag) => {
    const r = all[flag.key]!
    return { flag: flag.key, value: r.value, variationKey: r.variationKey, reason: r.reason }
  })
}

describe("flags as code: the round trip from SQLite to PostgreSQL", () => {
  it("exports the same bytes, and both serve the same answers to 10,000 random contexts", { timeout: 240_000 }, async () => {
    const first = await Effect.runPromise(Effect.scoped(applyAndRead(richFile()).pipe(Effect.provide(freshStorage("sqlite")))))
    const reparsed = Either.getOrThrow(parseFile(first.yaml))
    const second = await Effect.runPromise(Effect.scoped(applyAndRead(reparsed).pipe(Effect.provide(freshStorage("postgres")))))
    expect(second.yaml).toBe(first.yaml)
    expect(Either.getOrThrow(parseFile(first.json))).toEqual(reparsed)
    // the groups came through as groups, fields in the file's order
    expect(first.yaml).toContain("anyOf:")
    const file = reparsed as { segments: Array<{ key: string; conditions: unknown }>; flags: Array<{ key: string; environments: Array<{ key: string; rules?: Array<{ id: string; conditions: unknown }> }> }> }
    expect(file.segments.find((s) => s.key === "europe")!.conditions).toEqual([
      { anyOf: [[{ attribute: "country", operator: "in", values: ["DE"] }], [{ attribute: "country", operator: "in", values: ["FR"] }, { attribute: "age", operator: "gte", values: [18], negate: false }]] }
    ])
    const production = file.flags.find((f) => f.key === "checkout")!.environments.find((e) => e.key === "production")!
    expect(production.rules!.find((r) => r.id === "europe-or-pro")!.conditions).toEqual([
      { anyOf: [[{ operator: "inSegment", values: ["europe"] }], [{ attribute: "plan", operator: "in", values: ["pro"] }, { attribute: "email", operator: "endsWith", values: ["@example.com"] }]] },
      { attribute: "country", operator: "in", values: ["JP"], negate: true }
    ])

    ENVIRONMENTS.forEach((environment, i) => {
      const a = first.snapshots[i]!
      const b = second.snapshots[i]!
      const compiledA = Evaluate.compile(a)
      const compiledB = Evaluate.compile(b)
      const seen = new Set<string>()
      fc.assert(
        fc.property(context, (ctx) => {
          const fromA = results(a, compiledA, ctx)
          expect(results(b, compiledB, ctx)).toEqual(fromA)
          for (const r of fromA) seen.add(`${r.flag}:${r.variationKey}:${JSON.stringify(r.reason)}`)
        }),
        { numRuns: 10_000 }
      )
      // The contexts reached the rules: several variations and reasons per environment, so agreeing meant something.
      expect([...seen].filter((s) => s.startsWith("checkout:")).length, `${environment}: ${[...seen].join(", ")}`).toBeGreaterThanOrEqual(3)
      // the group's rule matched some contexts (production's rule 2)
      if (environment === "production") expect([...seen].some((s) => s.startsWith("checkout:on:") && s.includes('"ruleIndex":1'))).toBe(true)
    })
  })
})
