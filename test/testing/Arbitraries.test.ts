/**
 * `flagport/testing`'s arbitraries produce what they promise: snapshots and flags the server would
 * accept (the checks it makes before storing a definition), contexts the evaluation API accepts,
 * evaluations that never end in ERROR on them, and the options (keys, type, attributes) honoured.
 * Run with fast-check itself (the peer a user installs), not Effect's copy of it.
 */
import fc from "fast-check"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { arbitraryContext, arbitraryFlag, arbitrarySnapshot } from "../../adapters/testing/Arbitraries.js"
import { plainConditions } from "../../src/domain/definitions/Condition.js"
import * as Validation from "../../src/domain/definitions/Validation.js"
import { ConfigSnapshot } from "../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import { EvaluationContext } from "../../src/domain/evaluation/EvaluationContext.js"

const isSnapshot = Schema.is(ConfigSnapshot)
const isContext = Schema.is(EvaluationContext)

describe("flagport/testing", () => {
  it("snapshots are valid configurations: every flag and segment passes the server's checks", () => {
    fc.assert(
      fc.property(arbitrarySnapshot(), (snapshot) => {
        expect(isSnapshot(snapshot)).toBe(true)
        const segmentKeys = new Set(snapshot.segments.map((segment) => segment.key))
        for (const segment of snapshot.segments) expect(Validation.validateSegmentConditions(segment.conditions)).toEqual([])
        for (const flag of snapshot.flags) {
          expect(Validation.validateVariations(flag.type, flag.variations)).toEqual([])
          expect(Validation.validateTargeting(flag, { environment: "production", ...flag }, segmentKeys)).toEqual([])
        }
      }),
      { numRuns: 300 }
    )
  })

  it("contexts are valid, and evaluating any snapshot for them never ends in ERROR", () => {
    fc.assert(
      fc.property(arbitrarySnapshot(), arbitraryContext(), (snapshot, context) => {
        expect(isContext(context)).toBe(true)
        const compiled = Evaluate.compile(snapshot)
        for (const flag of snapshot.flags) expect(Evaluate.evaluate(compiled, flag.key, context).reason.kind).not.toBe("ERROR")
      }),
      { numRuns: 300 }
    )
  })

  it("options: flag keys, one type, the attributes conditions read and contexts carry", () => {
    const attributes = ["tier", "region"]
    fc.assert(
      fc.property(
        arbitrarySnapshot({ flagKeys: ["a", "b"], segmentKeys: [], attributes, environment: "staging" }),
        arbitraryFlag("typed", { type: "string" }),
        arbitraryContext({ attributes: { tier: fc.constantFrom("gold", "free") }, key: fc.constant("user-1") }),
        (snapshot, flag, context) => {
          expect(snapshot.environment).toBe("staging")
          expect(snapshot.flags.map((f) => f.key)).toEqual(["a", "b"])
          expect(snapshot.segments).toEqual([])
          const read = snapshot.flags.flatMap((f) => f.rules.flatMap((rule) => plainConditions(rule.conditions).map((condition) => condition.attribute)))
          for (const attribute of read) expect(["key", ...attributes]).toContain(attribute)
          expect(flag.type).toBe("string")
          for (const variation of flag.variations) expect(typeof variation.value).toBe("string")
          expect(context.key).toBe("user-1")
          for (const name of Object.keys(context.attributes ?? {})) expect(name).toBe("tier")
        }
      )
    )
  })
})
