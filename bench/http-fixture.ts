/**
 * The data the HTTP benchmarks evaluate (bench/http.bench.ts over sockets, bench/lane.bench.ts in
 * process): project `bench`, environment `production`, 50 string flags shaped like W2 of the
 * evaluator benchmark (two rules with conditions, then a 50/50 rollout), and the context every
 * evaluation sends.
 */
import { Effect } from "effect"
import type { TargetingInput } from "../src/domain/definitions/Targeting.js"
import { ApiKeys } from "../src/services/auth/ApiKeys.js"
import { Environments } from "../src/services/projects/Environments.js"
import { Flags } from "../src/services/flags/Flags.js"
import { Projects } from "../src/services/projects/Projects.js"

/** The context every evaluation scenario sends. */
export const CONTEXT = { key: "user-42", attributes: { email: "ada@example.org", country: "US", plan: "pro", seats: 12 } }

const w2Targeting = (i: number): TargetingInput => ({
  environment: "production",
  enabled: true,
  defaultVariationKey: "C",
  offVariationKey: "C",
  rules: [
    {
      id: `geo-plan-${i}`,
      conditions: [
        { attribute: "country", operator: "in", values: ["US", "CA", "MX"] },
        { attribute: "plan", operator: "in", values: ["pro", "enterprise"] }
      ],
      variationKey: "A"
    },
    { id: `staff-${i}`, conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }], variationKey: "B" },
    {
      id: `rollout-${i}`,
      conditions: [],
      rollout: { bucketBy: "key", variations: [{ variationKey: "A", weight: 50_000 }, { variationKey: "C", weight: 50_000 }] }
    }
  ]
})

/** Creates the project, its environment and `count` flags (`w2-flag-0`...); answers a client key's secret. */
export const seedW2Flags = (count: number) => Effect.gen(function* () {
  yield* (yield* Projects).create({ id: "bench", name: "Bench" })
  yield* (yield* Environments).create("bench", { key: "production", name: "Production" })
  const flags = yield* Flags
  for (let i = 0; i < count; i++) {
    const key = `w2-flag-${i}`
    yield* flags.create("bench", {
      key,
      type: "string",
      variations: [
        { key: "A", value: "a" },
        { key: "B", value: "b" },
        { key: "C", value: "c" }
      ]
    })
    yield* flags.replaceTargeting("bench", key, w2Targeting(i))
  }
  return (yield* (yield* ApiKeys).create({ type: "client", projectId: "bench" })).secret
})

/** The project the HTTP benchmarks serve: 50 flags. */
export const seedW2Project = seedW2Flags(50)
