/**
 * OFREP's bodies from evaluator results (lane/OfrepJson.ts), for what the HTTP API cannot make: a
 * flag whose definition cannot be evaluated (the API refuses to store one) is an error entry with
 * GENERAL; and the canonical context behind the bulk ETag.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import { bulkEtagOf, canonicalJson, isOfrepError, ofrepFlagJson } from "../../adapters/http/lane/OfrepJson.js"

const broken = Evaluate.compile({
  environment: "development",
  flags: [
    {
      key: "broken",
      type: "string",
      enabled: true,
      variations: [{ key: "a", value: "A" }],
      defaultVariationKey: "a",
      offVariationKey: "a",
      rules: [{ id: "r", conditions: [], rollout: { variations: [{ variationKey: "a", weight: 10 }] } }],
      version: 4
    }
  ],
  segments: []
})

describe("OFREP JSON", () => {
  it("a flag that cannot be evaluated is GENERAL with the evaluator's reason, and its version", () => {
    const result = Evaluate.evaluate(broken, "broken", { key: "u" })
    expect(isOfrepError(result)).toBe(true)
    expect(JSON.parse(ofrepFlagJson("broken", broken.flags.get("broken")!, result, 4))).toEqual({
      key: "broken",
      errorCode: "GENERAL",
      errorDetails: result.reason.error,
      metadata: { version: 4 }
    })
  })
  it("a prerequisite not met is the reason PREREQUISITE_FAILED with the off variation, the flag not met in the metadata", () => {
    const flag = (key: string, extra: Record<string, unknown>) => ({
      key,
      type: "boolean" as const,
      enabled: true,
      variations: [{ key: "on", value: true }, { key: "off", value: false }],
      defaultVariationKey: "on",
      offVariationKey: "off",
      rules: [],
      ...extra
    })
    const gated = Evaluate.compile({
      environment: "development",
      flags: [flag("base", { enabled: false }), flag("gated", { prerequisites: [{ flagKey: "base", variationKey: "on" }] })],
      segments: []
    })
    const result = Evaluate.evaluate(gated, "gated", { key: "u" })
    expect(JSON.parse(ofrepFlagJson("gated", gated.flags.get("gated")!, result, 2))).toEqual({
      key: "gated",
      value: false,
      reason: "PREREQUISITE_FAILED",
      variant: "off",
      metadata: { prerequisiteKey: "base", version: 2 }
    })
  })
  it("the canonical context sorts keys at every level and keeps arrays in order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}')
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe('{"__proto__":{"x":1},"a":2}')
    expect(bulkEtagOf('W/"c1"', { a: 1, b: 2 })).toBe(bulkEtagOf('W/"c1"', { b: 2, a: 1 }))
    expect(bulkEtagOf('W/"c1"', { a: 1 })).not.toBe(bulkEtagOf('W/"c2"', { a: 1 }))
  })
})
