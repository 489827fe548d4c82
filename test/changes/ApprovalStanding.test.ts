/**
 * Change requests (issue 28) through a real server on SQLite and PostgreSQL: approvals that no
 * longer count (the approver demoted, removed or disabled since), judged when the request is
 * applied by hand or by the scheduler, who may still apply, and an apply racing a second approval
 * or an update of the same request (on PostgreSQL a compare-and-set miss used to answer 409
 * "changed meanwhile").
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Scheduler from "../../src/services/schedules/Scheduler.js"
import { ChangeRequestMessages } from "../../src/domain/changes/ChangeRequestRules.js"
import { freshStorage } from "../fixtures/databases.js"
import { startServer, type TestServer } from "../http/fixtures.js"
import type { Role } from "../../src/domain/people/Role.js"
import { makePerson, type Person, setRole } from "../http/people.js"
import { changeRequestCalls, CRS, targeting } from "./ChangeRequestCalls.js"


interface Shown {
  readonly id: string
  readonly status: string
}

describe.each(["sqlite", "postgres"] as const)("change requests: approvals that still stand, and races (%s)", (backend) => {
  let t: TestServer
  let editor: Person
  let admin: Person
  let otherAdmin: Person
  let viewer: Person
  const { key, as, version, open: opened } = changeRequestCalls(() => t)
  const open = async (person: Person, flagKeys: ReadonlyArray<string>, enabled = true) => (await opened(person, flagKeys, enabled)) as Shown

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    for (const flagKey of ["h", "race"]) {
      expect((await key("POST", "/v1/projects/p1/flags", { key: flagKey, type: "string", variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] })).status).toBe(201)
    }
    expect((await key("PATCH", "/v1/projects/p1/environments/production", { protected: true })).status).toBe(200)
    editor = await t.run(makePerson("cr-editor@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
    admin = await t.run(makePerson("cr-admin@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
    otherAdmin = await t.run(makePerson("cr-admin2@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
    viewer = await t.run(makePerson("cr-viewer@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("an approval counts only while its author may still approve; the author or an approver applies only while they still may", async () => {
    // As the operator: no key changes a member.
    const member = (person: Person, role: Role) => t.run(setRole("p1", person.id, role))
    const approver = await t.run(makePerson(`cr-admin-${backend}-stale@example.com`, { projects: [{ projectId: "p1", role: "admin" }] }))
    const opened = await open(editor, ["h"])
    expect((await as(approver, "POST", `${CRS}/${opened.id}/approve`, {})).body).toMatchObject({ status: "approved" })
    // The approver is made an editor: the approval is still listed, but no longer counts.
    await member(approver, "editor")
    const notCounted = { error: { code: "conflict", message: ChangeRequestMessages.notApproved(0, 1) } }
    expect((await as(editor, "POST", `${CRS}/${opened.id}/apply`)).body).toEqual(notCounted)
    expect((await as(approver, "POST", `${CRS}/${opened.id}/apply`)).body).toEqual(notCounted)
    expect((await as(viewer, "GET", `${CRS}/${opened.id}`)).body).toMatchObject({ approvals: [{ by: { userId: approver.id } }] })
    // A second admin approves: it counts. The author, made a viewer, may no longer apply it; the approver does.
    expect((await as(otherAdmin, "POST", `${CRS}/${opened.id}/approve`, {})).status).toBe(200)
    await member(editor, "viewer")
    try {
      expect((await as(editor, "POST", `${CRS}/${opened.id}/apply`)).body).toEqual({ error: { code: "forbidden", message: "Your role in this project does not allow this" } })
      // The demoted approver may not apply it either, though their approval is listed.
      expect((await as(approver, "POST", `${CRS}/${opened.id}/apply`)).body).toEqual({ error: { code: "forbidden", message: ChangeRequestMessages.applyRefused } })
      const applied = await as(otherAdmin, "POST", `${CRS}/${opened.id}/apply`)
      expect(applied.status, applied.text).toBe(200)
    } finally {
      await member(editor, "editor")
    }
  })

  it("an apply racing a second approval or an update of the same request ends with the right answer, never 'changed meanwhile'", async () => {
    for (let round = 0; round < 8; round++) {
      const opened = await open(editor, ["race"], round % 2 === 0)
      expect((await as(admin, "POST", `${CRS}/${opened.id}/approve`, {})).status).toBe(200)
      const racing = round < 4
        ? as(otherAdmin, "POST", `${CRS}/${opened.id}/approve`, { comment: "me too" })
        : as(editor, "PUT", `${CRS}/${opened.id}`, { title: `Reworded ${round}` })
      const [applied, other] = await Promise.all([as(admin, "POST", `${CRS}/${opened.id}/apply`), racing])
      const final = (await as(viewer, "GET", `${CRS}/${opened.id}`)).body as Shown
      if (round < 4) {
        // A second approval never stops an approved request from being applied.
        expect(applied.status, applied.text).toBe(200)
        expect([200, 409]).toContain(other.status)
        if (other.status === 409) expect(other.body).toEqual({ error: { code: "conflict", message: ChangeRequestMessages.closed("applied") } })
      } else if (applied.status === 200) {
        // The apply landed first: the update finds it closed.
        expect(other.body, other.text).toEqual({ error: { code: "conflict", message: ChangeRequestMessages.closed("applied") } })
      } else {
        // The update landed first: it cleared the approvals, so the apply says so.
        expect(other.status, other.text).toBe(200)
        expect(applied.body).toEqual({ error: { code: "conflict", message: ChangeRequestMessages.notApproved(0, 1) } })
        expect((await as(editor, "POST", `${CRS}/${opened.id}/cancel`)).status).toBe(200)
      }
      expect(final.status === "applied").toBe(applied.status === 200)
    }
  })

  it("a scheduled request whose approver was disabled since fails when due, is not applied, and is due again once another admin approves", async () => {
    const approver = await t.run(makePerson(`cr-admin-${backend}-gone@example.com`, { projects: [{ projectId: "p1", role: "admin" }] }))
    const opened = await as(editor, "POST", CRS, {
      title: "Scheduled", environment: "production", applyAt: new Date(Date.now() - 1000).toISOString(), changes: [{ flagKey: "h", targeting: targeting(true, "b") }]
    })
    expect(opened.status, opened.text).toBe(201)
    const id = (opened.body as Shown).id
    expect((await as(approver, "POST", `${CRS}/${id}/approve`, {})).body).toMatchObject({ status: "approved" })
    expect((await key("PATCH", `/v1/users/${approver.id}`, { disabled: true })).status).toBe(200)
    const base = await version("h")
    expect(await t.run(Scheduler.tick("scheduler-a"))).toContain("failed")
    expect(await version("h")).toBe(base)
    expect((await as(viewer, "GET", `${CRS}/${id}`)).body).toMatchObject({ status: "approved", approvals: [{ by: { userId: approver.id } }], failure: ChangeRequestMessages.notApproved(0, 1) })
    expect((await as(otherAdmin, "POST", `${CRS}/${id}/approve`, {})).body).toMatchObject({ status: "approved", failure: null })
    expect(await t.run(Scheduler.tick("scheduler-a"))).toContain("applied")
    expect(await version("h")).toBe(base + 1)
  })
})
