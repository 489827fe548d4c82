/**
 * docs/guide/experiments.md's curl walk-through works as written (run as Walkthrough.ts says): a
 * flag split 50/50, an experiment refused on a rule that serves one variation, made on the
 * rollout's rule, started (its rule then fixed), stopped with a decision, audited.
 */
import { afterAll, describe, it } from "vitest"
import { walkthrough } from "./Walkthrough.js"

describe("docs/guide/experiments.md, the walk-through with curl", () => {
  const run = walkthrough("guide/experiments.md", { minSteps: 12 })
  afterAll(run.stop)

  it("works as written: a draft on the rollout's rule, started, stopped with a decision", { timeout: 180_000 }, run.check)
})
