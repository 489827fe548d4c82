/**
 * The plan as `flagport apply` prints it when a person's pending change requests already propose
 * some of the file: each named on a `=` line, a change that updates one says which, and a plan with
 * nothing else to do says so instead of "it is as the file says".
 */
import { describe, expect, it } from "@effect/vitest"
import { planText } from "../../src/domain/ascode/PlanText.js"

const targeting = (enabled: boolean) => ({ key: "production", enabled, defaultVariationKey: "on", offVariationKey: "off", prerequisites: [], rules: [] })
const pending = [{ id: "cr-1", environment: "production", flagKeys: ["checkout"] }]

describe("planText with pending change requests", () => {
  it("nothing left to do: no changes, the pending request named", () => {
    expect(planText({ projectId: "shop", changes: [], pendingChangeRequests: pending })).toBe(
      "Project shop: no changes; the rest awaits approval.\n\n" +
        "= targeting of checkout in production: already proposed in your change request cr-1, awaiting approval\n"
    )
    expect(planText({ projectId: "shop", changes: [], pendingChangeRequests: [] })).toBe("Project shop: no changes; it is as the file says.\n")
  })

  it("a change that updates a pending request names it; one that opens a new request says so", () => {
    const change = { resource: "targeting", action: "update", key: "banner", environment: "production", before: targeting(false), after: targeting(true), changeRequest: true } as const
    const text = planText({ projectId: "shop", changes: [{ ...change, changeRequestId: "cr-2" }, { ...change, key: "fresh" }], pendingChangeRequests: pending })
    expect(text).toContain("~ targeting of flag banner in production (protected: updates your change request cr-2)\n")
    expect(text).toContain("~ targeting of flag fresh in production (protected: proposed as a new change request)\n")
    expect(text).toMatch(/= targeting of checkout in production: already proposed in your change request cr-1, awaiting approval\n$/)
  })
})
