/**
 * `fractional` imports as a rollout with flagd's percentages (not its buckets): over many contexts
 * each variant's share, in flagd and in Flagport, is within sampling error of its weight. The
 * tolerance is 4.5 binomial standard deviations, sqrt(p (1 - p) / N), per variant and engine (a
 * chance failure would need a 4.5-sigma draw: about 7 in a million per comparison). The contexts
 * are fixed (seeded), so the test is deterministic.
 */
import { describe, expect, it } from "@effect/vitest"
import { thousandths } from "../../../src/domain/flagd/Fractional.js"
import { pair } from "./Parity.js"

const N = 20_000

const shareTest = (name: string, fractional: unknown, bucketBy: "key" | "email", expected: Record<string, number>) =>
  it(`${name}: each variant's share is its weight in both engines`, () => {
    const variants = Object.fromEntries(Object.keys(expected).map((k) => [k, k.toUpperCase()]))
    const document = { flags: { split: { state: "ENABLED", variants: { ...variants, fallback: "FALLBACK" }, defaultVariant: "fallback", targeting: { fractional } } } }
    const p = pair(document, "split")
    const counts = { flagd: new Map<string, number>(), flagport: new Map<string, number>() }
    for (let i = 0; i < N; i++) {
      const id = `user-${i}-${(i * 2654435761) % 1000003}`
      const ctx = bucketBy === "key" ? { key: id, attributes: {} } : { key: "k", attributes: { email: `${id}@example.com` } }
      const flagd = p.flagd(ctx)
      const flagport = p.flagport(ctx).variationKey
      if (flagd === "error" || flagport === null) throw new Error(`no answer for ${JSON.stringify(ctx)}`)
      counts.flagd.set(flagd.variant, (counts.flagd.get(flagd.variant) ?? 0) + 1)
      counts.flagport.set(flagport, (counts.flagport.get(flagport) ?? 0) + 1)
    }
    for (const [variant, share] of Object.entries(expected)) {
      const tolerance = 4.5 * Math.sqrt((share * (1 - share)) / N)
      for (const engine of ["flagd", "flagport"] as const) {
        const observed = (counts[engine].get(variant) ?? 0) / N
        expect(Math.abs(observed - share), `${engine} ${variant}: ${observed} vs ${share} (tolerance ${tolerance})`).toBeLessThanOrEqual(tolerance)
      }
    }
  })

describe("fractional: same percentages", () => {
  shareTest("by targeting key, 50/50", [["a", 50], ["b", 50]], "key", { a: 0.5, b: 0.5 })
  shareTest("by targeting key, 10/20/70", [["a", 10], ["b", 20], ["c", 70]], "key", { a: 0.1, b: 0.2, c: 0.7 })
  shareTest("by attribute, thirds (shorthand weights)", [{ var: "email" }, ["a"], ["b"], ["c"]], "email", { a: 1 / 3, b: 1 / 3, c: 1 / 3 })
  shareTest("by flag key and attribute, 25 each", [{ cat: [{ var: "$flagd.flagKey" }, { var: "email" }] }, ["a", 25], ["b", 25], ["c", 25], ["d", 25]], "email", { a: 0.25, b: 0.25, c: 0.25, d: 0.25 })
  shareTest("a negative weight counts as 0", [["a", -5], ["b", 3]], "key", { a: 0, b: 1 })
})

describe("fractional weights in thousandths", () => {
  const cases: ReadonlyArray<[string, ReadonlyArray<{ variationKey: string; weight: number }>, ReadonlyArray<{ variationKey: string; weight: number }>]> = [
    ["percentages", [{ variationKey: "a", weight: 25 }, { variationKey: "b", weight: 75 }], [{ variationKey: "a", weight: 25000 }, { variationKey: "b", weight: 75000 }]],
    ["thirds: the remainder goes to the earliest", [{ variationKey: "a", weight: 1 }, { variationKey: "b", weight: 1 }, { variationKey: "c", weight: 1 }], [{ variationKey: "a", weight: 33334 }, { variationKey: "b", weight: 33333 }, { variationKey: "c", weight: 33333 }]],
    ["largest remainder first", [{ variationKey: "a", weight: 1 }, { variationKey: "b", weight: 2 }], [{ variationKey: "a", weight: 33333 }, { variationKey: "b", weight: 66667 }]],
    ["same variant merged, zero left out", [{ variationKey: "a", weight: 1 }, { variationKey: "z", weight: 0 }, { variationKey: "a", weight: 1 }, { variationKey: "b", weight: 2 }], [{ variationKey: "a", weight: 50000 }, { variationKey: "b", weight: 50000 }]]
  ]
  for (const [name, input, output] of cases) it(name, () => expect(thousandths(input)).toEqual(output))
})
