/**
 * The evaluator benchmark's workloads (issue 2), shared by bench/evaluator.bench.ts and
 * bench/evaluator-ab.ts so both measure exactly the same thing.
 *
 * W1: one boolean flag, enabled, no rules.
 * W2: a string flag A/B/C with three ordered rules: (1) country in [US, CA, MX] AND plan in
 *     [pro, enterprise] -> A; (2) email endsWith "@example.com" -> B; (3) 50/50 rollout by key
 *     between A and C; fallthrough C. 1,000 precomputed contexts (below) cycled.
 * W3: evaluateAll over 200 W2-shaped flags (each its own key).
 * W2P: the W2 flag requiring two prerequisites, each an enabled boolean flag without rules (W1's
 *      shape) that serves the named variation, so both are checked and then W2's rules run.
 */
import type { ConfigSnapshot, SnapshotFlag } from "../src/domain/evaluation/ConfigSnapshot.js"
import type { EvaluationContext } from "../src/domain/evaluation/EvaluationContext.js"

export const w2Flag = (key: string): SnapshotFlag => ({
  key,
  type: "string",
  enabled: true,
  variations: [
    { key: "A", value: "a" },
    { key: "B", value: "b" },
    { key: "C", value: "c" }
  ],
  defaultVariationKey: "C",
  offVariationKey: "C",
  rules: [
    {
      id: "north-america-paid",
      conditions: [
        { attribute: "country", operator: "in", values: ["US", "CA", "MX"] },
        { attribute: "plan", operator: "in", values: ["pro", "enterprise"] }
      ],
      variationKey: "A"
    },
    { id: "staff", conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }], variationKey: "B" },
    {
      id: "half",
      conditions: [],
      rollout: { bucketBy: "key", variations: [{ variationKey: "A", weight: 50_000 }, { variationKey: "C", weight: 50_000 }] }
    }
  ]
})

export const w1: ConfigSnapshot = {
  environment: "production",
  flags: [
    {
      key: "kill-switch",
      type: "boolean",
      enabled: true,
      variations: [
        { key: "on", value: true },
        { key: "off", value: false }
      ],
      defaultVariationKey: "on",
      offVariationKey: "off",
      rules: []
    }
  ],
  segments: []
}
export const w2: ConfigSnapshot = { environment: "production", flags: [w2Flag("checkout-variant")], segments: [] }
export const w2p: ConfigSnapshot = {
  environment: "production",
  flags: [
    ...["payments-live", "checkout-enabled"].map((key) => ({ ...w1.flags[0]!, key })),
    { ...w2Flag("checkout-variant"), prerequisites: [{ flagKey: "payments-live", variationKey: "on" }, { flagKey: "checkout-enabled", variationKey: "on" }] }
  ],
  segments: []
}
export const w3: ConfigSnapshot = {
  environment: "production",
  flags: Array.from({ length: 200 }, (_, i) => w2Flag(`flag-${i}`)),
  segments: []
}

// Deterministic pseudo-random contexts (mulberry32), so every run measures the same mix.
let seed = 42
const rand = (n: number): number => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)
}
const countries = ["US", "CA", "MX", "DE", "FR", "BR", "JP", "IN"]
const plans = ["free", "pro", "enterprise", "team"]
const domains = ["@example.com", "@mail.test", "@corp.test", "@gmail.test"]
export const contexts: Array<EvaluationContext> = Array.from({ length: 1000 }, (_, i) => ({
  key: `user-${i}-${rand(1_000_000)}`,
  attributes: {
    email: `person${i}${domains[rand(domains.length)]}`,
    country: countries[rand(countries.length)],
    plan: plans[rand(plans.length)]
  }
}))

/**
 * W2S: W2 with a 1,000,000-key segment in a rule: a first rule `inSegment [beta-testers]` -> B,
 * the segment's `included` list holding a million keys (`account-0`...) and every tenth context's
 * key, so a tenth of the contexts are served by it and the rest go on to W2's rules.
 */
export const W2S_KEYS = 1_000_000
export const w2s: ConfigSnapshot = {
  environment: "production",
  flags: [{ ...w2Flag("checkout-variant"), rules: [{ id: "beta", conditions: [{ operator: "inSegment", values: ["beta-testers"] }], variationKey: "B" }, ...w2Flag("checkout-variant").rules] }],
  segments: [{ key: "beta-testers", conditions: [], included: { version: 1, count: W2S_KEYS } }]
}
export const w2sIncluded = (): ReadonlyArray<string> => [
  ...Array.from({ length: W2S_KEYS - 100 }, (_, i) => `account-${i}`),
  ...contexts.filter((_, i) => i % 10 === 0).map((c) => c.key)
]
