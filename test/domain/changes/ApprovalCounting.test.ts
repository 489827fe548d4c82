/**
 * Whether an approval still counts (domain/changes/ApprovalCounting.ts), as a table: who gave it
 * and their standing in the project now -> counts, or why not. The roles follow the roles table:
 * only a role with `approve` counts, whatever else it may do; a key's approval never counts.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Actor } from "../../../src/domain/audit/Actor.js"
import { notCountingReason, roleOfStanding, type Standing } from "../../../src/domain/changes/ApprovalCounting.js"
import { GRANTS } from "../../../src/domain/people/Grants.js"

const PERSON: Actor = { type: "user", userId: "usr_1" }
const KEY: Actor = { type: "key", keyId: "key_1", keyName: "ci" }
const OPERATOR: Actor = { type: "cli" }

const TABLE: ReadonlyArray<readonly [Actor, Standing, ReturnType<typeof notCountingReason>]> = [
  [PERSON, { role: "admin" }, null],
  [PERSON, { role: "editor" }, "demoted"],
  [PERSON, { role: "viewer" }, "demoted"],
  [PERSON, { absence: "removed" }, "removed"],
  [PERSON, { absence: "disabled" }, "disabled"],
  [OPERATOR, { role: "admin" }, null],
  // Given before keys were refused the approve: approvals are people's.
  [KEY, { role: "admin" }, "key"],
  [KEY, { absence: "revoked" }, "revoked"]
]

describe("whether an approval counts", () => {
  it.each(TABLE)("%o, %o -> %s", (by, standing, reason) => {
    expect(notCountingReason(by, standing)).toBe(reason)
  })

  it("a person's role counts exactly when the roles table lets it approve", () => {
    for (const [role, grants] of Object.entries(GRANTS)) {
      expect(notCountingReason(PERSON, { role: role as keyof typeof GRANTS }) === null).toBe(grants.includes("approve"))
    }
  })

  it("an absent actor has no role; a present one keeps theirs", () => {
    expect(roleOfStanding({ absence: "disabled" })).toBeNull()
    expect(roleOfStanding({ role: "editor" })).toBe("editor")
  })
})
