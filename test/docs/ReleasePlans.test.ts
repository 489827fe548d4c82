/**
 * docs/guide/release-plans.md's walk-through works as written (run as Walkthrough.ts says): a
 * server checking guardrails every 2 seconds (FLAGPORT_GUARDRAIL_CHECK_SECONDS), a plan with an
 * error-rate guardrail and onHarm rollback, 3,000 users evaluated through the server where the
 * ramped variation errs twice as often, the plan harmed and the rule back at weight 0, audited.
 */
import { afterAll, describe, it } from "vitest"
import { walkthrough } from "./Walkthrough.js"

describe("docs/guide/release-plans.md, the walk-through with curl", () => {
  const run = walkthrough("guide/release-plans.md", { minSteps: 15 })
  afterAll(run.stop)

  it("works as written: a regression caught at the second step and rolled back to weight 0", { timeout: 180_000 }, run.check)
})
