/**
 * Whether an approval still counts (domain/changes/ApprovalCounting.ts), as a table: the approver's
 * standing in the project now -> counts, or why not. The roles follow the roles table: only a
 * role with `approve` counts, whatever else it may do.
 */
import { describe, expect, it } from "@effect/vitest"
import { notCountingReason, roleOfStanding, type Standing } from "../../../src/domain/changes/ApprovalCounting.js"
import { GRANTS } from "../../../src/domain/people/Grants.js"

const TABLE: ReadonlyArray<readonly [Standing, ReturnType<typeof notCountingReason>]> = [
  [{ role: "admin" }, null],
  [{ role: "editor" }, "demoted"],
  [{ role: "viewer" }, "demoted"],
  [{ absence: "removed" }, "removed"],
  [{ absence: "disabled" }, "disabled"],
  [{ absence: "revoked" }, "revoked"]
]

describe("whether an approval counts", () => {
  it.each(TABLE)("%o -> %s", (standing, reason) => {
    expect(notCountingReason(standing)).toBe(reason)
  })

  it("a role counts exactly when the roles table lets it approve", () => {
    for (const [role, grants] of Object.entries(GRANTS)) {
      expect(notCountingReason({ role: role as keyof typeof GRANTS }) === null).toBe(grants.includes("approve"))
    }
  })

  it("an absent actor has no role; a present one keeps theirs", () => {
    expect(roleOfStanding({ absence: "disabled" })).toBeNull()
    expect(roleOfStanding({ role: "editor" })).toBe("editor")
  })
})
