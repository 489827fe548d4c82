import { describe, expect, it } from "vitest"
import type { Flag } from "../../src/domain/definitions/Flag.js"
import { isStale, lastEvaluatedWithDependents } from "../../src/domain/insights/Usage.js"

/** A flag with configurations in the given environments, each requiring the listed flag keys. */
const flag = (key: string, requires: Record<string, ReadonlyArray<string>>): Flag =>
  ({
    key,
    configs: Object.entries(requires).map(([environmentKey, keys]) => ({
      environmentKey,
      prerequisites: keys.map((flagKey) => ({ flagKey, variationKey: "on" }))
    }))
  }) as unknown as Flag

const T1 = "2026-11-01T10:00:00.000Z"
const T2 = "2026-11-20T10:00:00.000Z"

describe("last evaluation, counting evaluations as a prerequisite", () => {
  it.each([
    {
      name: "no prerequisites: each flag's own",
      flags: [flag("a", { prod: [] }), flag("b", { prod: [] })],
      own: { "a prod": T1 },
      expected: { "a prod": T1, "b prod": null }
    },
    {
      name: "a requires b: b was evaluated when a was",
      flags: [flag("a", { prod: ["b"] }), flag("b", { prod: [] })],
      own: { "a prod": T1 },
      expected: { "a prod": T1, "b prod": T1 }
    },
    {
      name: "the later of its own and its dependents'",
      flags: [flag("a", { prod: ["b"] }), flag("b", { prod: [] })],
      own: { "a prod": T1, "b prod": T2 },
      expected: { "a prod": T1, "b prod": T2 }
    },
    {
      name: "through a chain a -> b -> c, and from the latest of two dependents",
      flags: [flag("a", { prod: ["b"] }), flag("d", { prod: ["b"] }), flag("b", { prod: ["c"] }), flag("c", { prod: [] })],
      own: { "a prod": T1, "d prod": T2 },
      expected: { "b prod": T2, "c prod": T2 }
    },
    {
      name: "only where the dependent requires it and was evaluated",
      flags: [flag("a", { prod: ["b"], staging: [] }), flag("b", { prod: [], staging: [] })],
      own: { "a staging": T1 },
      expected: { "b prod": null, "b staging": null }
    },
    {
      name: "a cycle (written around the API) ends where it closes",
      flags: [flag("a", { prod: ["b"] }), flag("b", { prod: ["a"] })],
      own: { "a prod": T1 },
      expected: { "a prod": T1, "b prod": T1 }
    }
  ])("$name", ({ flags, own, expected }) => {
    const lastEvaluated = lastEvaluatedWithDependents(flags, (flagKey, env) => (own as Record<string, string>)[`${flagKey} ${env}`] ?? null)
    for (const [id, at] of Object.entries(expected)) {
      const [flagKey, env] = id.split(" ")
      expect(lastEvaluated(flagKey!, env!), id).toBe(at)
    }
  })

  it("a flag only ever evaluated as a prerequisite is not stale", () => {
    const flags = [flag("checkout", { prod: ["payments-live"] }), flag("payments-live", { prod: [] })]
    const lastEvaluated = lastEvaluatedWithDependents(flags, (flagKey) => (flagKey === "checkout" ? T2 : null))
    const now = Date.parse("2026-11-23T10:00:00.000Z")
    expect(isStale("2026-01-01T00:00:00.000Z", [lastEvaluated("payments-live", "prod")], now, 30)).toBe(false)
    expect(isStale("2026-01-01T00:00:00.000Z", [null], now, 30)).toBe(true)
  })
})
