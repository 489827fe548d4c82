/**
 * Two simultaneous removals of a person's last two memberships, through a real server on SQLite
 * and PostgreSQL: whichever commits last sees no membership left, so the person's session ends
 * (docs/guide/people.md: removing someone's last membership ends their sessions).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"
import { asPerson, makePerson, type Person } from "./people.js"

describe.each(["sqlite", "postgres"] as const)("simultaneous removals of the last memberships (%s)", (backend) => {
  let t: TestServer
  /** A global administrator removes them: people are managed by people, never by a key. */
  let admin: Person
  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    admin = await t.run(makePerson("remover@example.com", { admin: true }))
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("end the person's session, every time", async () => {
    for (let i = 0; i < 12; i++) {
      const person = await t.run(
        makePerson(`twice-removed-${i}@example.com`, { projects: [{ projectId: "p1", role: "editor" }, { projectId: "p2", role: "viewer" }] })
      )
      const removals = await Promise.all(
        ["p1", "p2"].map((projectId) => asPerson(t.url, admin.cookie, "DELETE", `/v1/projects/${projectId}/members/${person.id}`))
      )
      expect(removals.map((r) => r.status)).toEqual([204, 204])
      const me = await request(t.url, "GET", "/v1/me", { headers: { cookie: person.cookie } })
      expect(me.status, `attempt ${i}`).toBe(401)
    }
  }, 60_000)
})
