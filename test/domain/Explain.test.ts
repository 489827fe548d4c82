/** The trace `Evaluate.explain` records: each step the evaluator took, in order, and nothing else. */
import { describe, expect, it } from "@effect/vitest"
import { bucket } from "../../src/domain/evaluation/Bucketing.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import { booleanFlag, snapshot } from "./fixtures.js"

const compiled = Evaluate.compile(
  snapshot(
    [
      booleanFlag({ key: "base", defaultVariationKey: "on" }),
      booleanFlag({
        key: "checkout",
        prerequisites: [{ flagKey: "base", variationKey: "on" }],
        rules: [
          {
            id: "staff",
            conditions: [
              { attribute: "country", operator: "in", values: ["US"] },
              { operator: "inSegment", values: ["beta", "staff"] }
            ],
            variationKey: "on"
          },
          { id: "pro", conditions: [{ attribute: "plan", operator: "in", values: ["pro"], negate: true }], variationKey: "on" },
          { id: "half", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] } }
        ]
      })
    ],
    [
      { key: "beta", conditions: [{ attribute: "beta", operator: "exists", values: [] }] },
      { key: "staff", conditions: [{ attribute: "email", operator: "endsWith", values: ["@shop.example"] }] }
    ]
  )
)

describe("Evaluate.explain", () => {
  it("records prerequisites, each rule tried with its conditions, segments and the rollout's bucket", () => {
    const context = { key: "user-7", attributes: { country: "US", email: "ada@shop.example", plan: "pro" } }
    const { result, trace } = Evaluate.explain(compiled, "checkout", context)
    expect(result).toBe(Evaluate.evaluate(compiled, "checkout", context))
    expect(result.reason).toEqual({ kind: "RULE_MATCH", ruleId: "staff", ruleIndex: 0 })
    expect(trace).toEqual({
      flagKey: "checkout",
      prerequisites: [
        {
          flagKey: "base",
          variationKey: "on",
          met: true,
          result: { flagKey: "base", value: true, variationKey: "on", reason: { kind: "FALLTHROUGH" } },
          trace: { flagKey: "base", prerequisites: [], rules: [] }
        }
      ],
      rules: [
        {
          ruleId: "staff",
          ruleIndex: 0,
          matched: true,
          conditions: [
            { attribute: "country", operator: "in", values: ["US"], negate: false, absent: false, value: "US", matched: true },
            {
              operator: "inSegment",
              values: ["beta", "staff"],
              negate: false,
              matched: true,
              segments: [
                { segmentKey: "beta", matched: false, conditions: [{ attribute: "beta", operator: "exists", values: [], negate: false, absent: true, matched: false }] },
                {
                  segmentKey: "staff",
                  matched: true,
                  conditions: [{ attribute: "email", operator: "endsWith", values: ["@shop.example"], negate: false, absent: false, value: "ada@shop.example", matched: true }]
                }
              ]
            }
          ]
        }
      ]
    })
  })

  it("stops a rule at its first failing condition and records the rollout of the rule that serves", () => {
    const context = { key: "user-9", attributes: { country: "DE", plan: "pro" } }
    const { result, trace } = Evaluate.explain(compiled, "checkout", context)
    expect(result).toBe(Evaluate.evaluate(compiled, "checkout", context))
    expect(trace.rules).toEqual([
      { ruleId: "staff", ruleIndex: 0, matched: false, conditions: [{ attribute: "country", operator: "in", values: ["US"], negate: false, absent: false, value: "DE", matched: false }] },
      { ruleId: "pro", ruleIndex: 1, matched: false, conditions: [{ attribute: "plan", operator: "in", values: ["pro"], negate: true, absent: false, value: "pro", matched: false }] },
      {
        ruleId: "half",
        ruleIndex: 2,
        matched: true,
        conditions: [],
        rollout: { bucketBy: "key", absent: false, value: "user-9", bucket: bucket("checkout", "user-9"), variationKey: result.variationKey }
      }
    ])
  })

  it("records a prerequisite not met with its own trace, and no rule", () => {
    const baseOff = Evaluate.compile(
      snapshot([
        booleanFlag({ key: "base", rules: [{ id: "r", conditions: [{ attribute: "plan", operator: "in", values: ["pro"] }], variationKey: "on" }] }),
        booleanFlag({ key: "checkout", prerequisites: [{ flagKey: "base", variationKey: "on" }, { flagKey: "ghost", variationKey: "on" }] })
      ])
    )
    const { result, trace } = Evaluate.explain(baseOff, "checkout", { key: "u" })
    expect(result.reason).toEqual({ kind: "PREREQUISITE_FAILED", prerequisiteKey: "base" })
    expect(trace).toEqual({
      flagKey: "checkout",
      prerequisites: [
        {
          flagKey: "base",
          variationKey: "on",
          met: false,
          result: { flagKey: "base", value: false, variationKey: "off", reason: { kind: "FALLTHROUGH" } },
          trace: {
            flagKey: "base",
            prerequisites: [],
            rules: [{ ruleId: "r", ruleIndex: 0, matched: false, conditions: [{ attribute: "plan", operator: "in", values: ["pro"], negate: false, absent: true, matched: false }] }]
          }
        }
      ],
      rules: []
    })
    const missing = Evaluate.compile(snapshot([booleanFlag({ key: "checkout", prerequisites: [{ flagKey: "ghost", variationKey: "on" }] })]))
    expect(Evaluate.explain(missing, "checkout", { key: "u" }).trace.prerequisites).toEqual([
      { flagKey: "ghost", variationKey: "on", met: false, result: null, trace: null }
    ])
  })

  it("an unknown flag explains as evaluate answers it, with an empty trace", () => {
    const { result, trace } = Evaluate.explain(compiled, "nope", { key: "u" })
    expect(result).toEqual(Evaluate.evaluate(compiled, "nope", { key: "u" }))
    expect(trace).toEqual({ flagKey: "nope", prerequisites: [], rules: [] })
  })
})
