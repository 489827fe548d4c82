/**
 * docs/guide/people.md stays true: its roles table is the one the server checks (GRANTS), and its
 * curl walk-through works as written (run as Walkthrough.ts says).
 */
import { afterAll, describe, expect, it } from "vitest"
import { GRANTS, type Permission, type Role } from "../../src/domain/people/Grants.js"
import { walkthrough, between as betweenIn } from "./Walkthrough.js"

const between = (start: string, end: string): string => betweenIn("guide/people.md", start, end)

describe("docs/guide/people.md, the roles table", () => {
  const rows = between("roles-table:start", "roles-table:end")
    .split("\n")
    .slice(2)
    .map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()))
  const roles: ReadonlyArray<Role> = ["viewer", "editor", "admin"]
  const PERMISSIONS: ReadonlyArray<Permission> = ["read", "write", "propose", "approve", "manage"]

  it("has the columns viewer, editor, admin, global admin", () => {
    const header = between("roles-table:start", "roles-table:end").split("\n")[0]!.split("|").slice(2, -1).map((cell) => cell.trim())
    expect(header).toEqual([...roles, "global admin"])
  })

  it("shows each permission once, granted to exactly the roles GRANTS gives it (and to global admins)", () => {
    const shown = rows.flatMap(([what, ...marks]) => {
      const permission = /^`([a-z]+)`:/.exec(what!)?.[1]
      return permission === undefined ? [] : [{ permission, marks }]
    })
    expect(shown.map((row) => row.permission)).toEqual(PERMISSIONS)
    for (const { permission, marks } of shown) {
      const expected = [...roles.map((role) => (GRANTS[role].includes(permission as Permission) ? "✔" : "–")), "✔"]
      expect(marks, permission).toEqual(expected)
    }
  })

  it("ends with what only a global admin may do", () => {
    expect(rows.at(-1)!.slice(1)).toEqual(["–", "–", "–", "✔"])
  })
})

describe("docs/guide/people.md, the walk-through with curl", () => {
  const run = walkthrough("guide/people.md", { minSteps: 15 })
  afterAll(run.stop)

  it("works as written: from the first start to Edna signed in as an editor, and her limits", { timeout: 180_000 }, run.check)
})
