/**
 * Property-testing code that evaluates flags, with the arbitraries of `flagport/testing`
 * (fast-check: `npm install -D fast-check`) and the evaluator of `flagport`. fast-check generates
 * hundreds of users (and configurations), checks each property on all of them, and on a failure
 * shrinks to the smallest user that breaks it.
 *
 *   npx tsx examples/property-test.ts       # in this repository: after `npm run build`
 *
 * The same properties fit in any test runner (`it("...", () => fc.assert(property))`).
 */
import fc from "fast-check"
import { type ConfigSnapshot, Evaluate, type EvaluationContext } from "flagport"
import { arbitraryContext, arbitrarySnapshot } from "flagport/testing"
import { pathToFileURL } from "node:url"

/**
 * The configuration the app is served, as `GET /v1/config?environment=production` returns it (in
 * a real test, a saved copy or the SDK's bootstrap file): beta users get the new checkout, and a
 * quarter of everyone else.
 */
export const production: ConfigSnapshot.ConfigSnapshot = {
  environment: "production",
  flags: [
    {
      key: "new-checkout",
      type: "boolean",
      enabled: true,
      variations: [{ key: "on", value: true }, { key: "off", value: false }],
      defaultVariationKey: "off",
      offVariationKey: "off",
      rules: [
        { id: "beta", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" },
        { id: "quarter", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 25_000 }, { variationKey: "off", weight: 75_000 }] } }
      ]
    }
  ],
  segments: []
}

/** The code under test: which checkout a user sees, from whatever the flag serves. */
export const checkoutFor = (compiled: Evaluate.CompiledSnapshot, user: EvaluationContext.EvaluationContext): "new" | "classic" =>
  Evaluate.evaluate(compiled, "new-checkout", user).value === true ? "new" : "classic"

const compiled = Evaluate.compile(production)

/** Users as the app has them: a key, a plan and a country (any subset of the attributes). */
const users = arbitraryContext({ attributes: { plan: fc.constantFrom("beta", "pro", "free"), country: fc.constantFrom("DE", "US", "FR") } })

/** Each property, checked on a hundred generated cases (fast-check's default); a failure throws with the smallest case that breaks it. */
export const checks: Record<string, () => void> = {
  /** The promise made to beta users. */
  "every beta user gets the new checkout": () =>
    fc.assert(fc.property(users, (user) => user.attributes?.plan !== "beta" || checkoutFor(compiled, user) === "new")),

  /** The rollout goes by user, not by where they are: moving country never flips the checkout. */
  "the checkout does not depend on the country": () =>
    fc.assert(
      fc.property(users, fc.constantFrom("DE", "US", "FR"), (user, country) =>
        checkoutFor(compiled, user) === checkoutFor(compiled, { ...user, attributes: { ...user.attributes, country } })
      )
    ),

  /** Whatever someone configures on the server (another type, rules, rollouts, segments), the page still renders. */
  "any configuration: checkoutFor answers and never throws": () =>
    fc.assert(
      fc.property(arbitrarySnapshot({ flagKeys: ["new-checkout"] }), arbitraryContext(), (snapshot, user) =>
        ["new", "classic"].includes(checkoutFor(Evaluate.compile(snapshot), user))
      )
    )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const [name, check] of Object.entries(checks)) {
    check()
    console.log(`ok: ${name}`)
  }
}
