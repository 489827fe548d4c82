/**
 * docs/guide/change-requests.md's curl walk-through works as written (run as Walkthrough.ts says): from
 * the first start to a production change proposed, approved and applied, then a conflict and the
 * update that brings the request up to date.
 */
import { afterAll, describe, it } from "vitest"
import { walkthrough } from "./Walkthrough.js"

describe("docs/guide/change-requests.md, the walk-through with curl", () => {
  const run = walkthrough("guide/change-requests.md", { minSteps: 15 })
  afterAll(run.stop)

  it("works as written: propose, approve, apply; the conflict and the update", { timeout: 180_000 }, run.check)
})
