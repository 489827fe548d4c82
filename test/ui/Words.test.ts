/**
 * The dashboard's words for the API's refusals (ui/lib/words.ts), and its routes (ui/lib/routes.ts):
 * tables of paths and messages with what a person reads, and routes that survive a round trip.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { FLAG_SECTIONS, href, parseRoute, type Route } from "../../ui/lib/routes.js"
import { fieldWords, messageWords } from "../../ui/lib/words.js"

describe("fieldWords", () => {
  it.each([
    ["", ""],
    ["name", "Name"],
    ["defaultVariationKey", "Default variation"],
    ["rules[0].rollout.variations", "Rule 1, rollout shares"],
    ["rules[1].rollout.variations[2].weight", "Rule 2, rollout share 3, share"],
    ["rules[0].conditions[1].values[2]", "Rule 1, condition 2, value 3"],
    ["steps[2].weight", "Step 3, share"],
    ["steps[0].holdMinutes", "Step 1, hold (minutes)"],
    ["guardrails[1].event", "Guardrail 2, event"],
    ["rules[2].variationKey", "Rule 3, variation"],
    ["rules[0].conditions[1].anyOf[0][2].values[1]", "Rule 1, condition 2, option 1, condition 3, value 2"],
    ["rules[0].conditions[1].anyOf", "Rule 1, condition 2, options"],
    ["conditions[0].anyOf[3]", "Condition 1, option 4"],
    ["variations[1].value", "Variation 2, value"],
    ["prerequisites[0].flagKey", "Prerequisite 1, flag"],
    ["changes[0].targeting.rules[0]", "Change 1, targeting, rule 1"],
    ["somethingNew", "SomethingNew"]
  ])("%s reads %s", (path, words) => {
    expect(fieldWords(path)).toBe(words)
  })
})

describe("messageWords", () => {
  it.each([
    ["weights must sum to 100000 (got 90000)", "the shares must total 100% (they total 90%)"],
    ["weights must sum to 100000 (got 100500)", "the shares must total 100% (they total 100.5%)"],
    ["Flag 'checkout' is at version 4, not the version named by If-Match", "It is now at version 4."],
    ["The targeting of flag 'checkout' in 'staging' is at version 7, not the version named by If-Match", "Its targeting in staging is now at version 7."],
    ["unknown variation 'beta'", "unknown variation 'beta'"]
  ])("%s reads %s", (message, words) => {
    expect(messageWords(message)).toBe(words)
  })
})

describe("routes", () => {
  it.each<[string, Route]>([
    ["#/flags", { page: "flags" }],
    ["#/flags/checkout", { page: "flag", key: "checkout" }],
    ["#/flags/checkout/history", { page: "flag", key: "checkout", section: "history" }],
    ["#/flags/checkout/definition?environment=production", { page: "flag", key: "checkout", section: "definition", environment: "production" }],
    ["#/flags/checkout?environment=staging", { page: "flag", key: "checkout", environment: "staging" }],
    ["#/flags/checkout/nonsense", { page: "flag", key: "checkout" }],
    ["#/flags/a%2Fb", { page: "flag", key: "a/b" }],
    ["#/keys", { page: "keys" }],
    ["#/experiments", { page: "experiments" }],
    ["#/experiments/checkout-redesign", { page: "experiment", key: "checkout-redesign" }],
    ["#/experiments/a%2Fb", { page: "experiment", key: "a/b" }],
    ["#/nowhere", { page: "flags" }]
  ])("%s is %j", (hash, route) => {
    expect(parseRoute(hash)).toEqual(route)
  })

  it("writes the first section as the flag's own address", () => {
    expect(href({ page: "flag", key: "checkout", section: "targeting", environment: "production" })).toBe("#/flags/checkout?environment=production")
  })

  it("reads back every flag route it writes", () => {
    const flagRoute = fc.record(
      {
        page: fc.constant("flag" as const),
        key: fc.string({ minLength: 1 }),
        section: fc.constantFrom(...FLAG_SECTIONS.slice(1)),
        environment: fc.string({ minLength: 1 })
      },
      { requiredKeys: ["page", "key"] }
    )
    fc.assert(
      fc.property(flagRoute, (route) => {
        expect(parseRoute(href(route))).toEqual(route)
      })
    )
  })
})
