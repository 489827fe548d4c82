/**
 * The attack this closes, through a real server on SQLite and PostgreSQL, as people signed in: an
 * editor proposes serving a flag in protected production to a segment; an admin approves, seeing
 * the segment's conditions in the request; the editor then widens the segment to match everyone and
 * applies her own request. The apply is a 409 naming the segment, production is not changed, and
 * the request stays approved until she updates it (which pins the segment anew and needs approving again).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshStorage } from "../fixtures/databases.js"
import { startServer, type TestServer } from "../http/fixtures.js"
import { makePerson, type Person } from "../http/people.js"
import { changeRequestCalls, CRS } from "./ChangeRequestCalls.js"

const staff = [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }]
const everyone = [{ attribute: "email", operator: "contains", values: ["@"] }]
const toStaff = {
  enabled: true,
  defaultVariationKey: "b",
  offVariationKey: "b",
  rules: [{ conditions: [{ operator: "inSegment", values: ["staff"] }], variationKey: "a" }]
}

describe.each(["sqlite", "postgres"] as const)("a change request and the segments it names (%s)", (backend) => {
  let t: TestServer
  let editor: Person
  let admin: Person
  const { key, as, version } = changeRequestCalls(() => t)
  const served = async (email: string) =>
    ((await key("POST", "/v1/evaluate", { environment: "production", projectId: "p1", context: { key: email, attributes: { email } } })).body as {
      flags: Record<string, { variationKey: string }>
    }).flags["widened"]?.variationKey

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    expect((await key("POST", "/v1/projects/p1/flags", { key: "widened", type: "string", variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] })).status).toBe(201)
    expect((await key("PATCH", "/v1/projects/p1/environments/production", { protected: true })).status).toBe(200)
    editor = await t.run(makePerson(`seg-editor-${backend}@example.com`, { projects: [{ projectId: "p1", role: "editor" }] }))
    admin = await t.run(makePerson(`seg-admin-${backend}@example.com`, { projects: [{ projectId: "p1", role: "admin" }] }))
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("widening a segment after the approval: the apply is refused (409), nothing served changes; updated and approved again, it applies", async () => {
    expect((await as(editor, "POST", "/v1/projects/p1/segments", { key: "staff", name: "Staff", conditions: staff })).status).toBe(201)
    const opened = await as(editor, "POST", CRS, { title: "Staff first", environment: "production", changes: [{ flagKey: "widened", targeting: toStaff }] })
    expect(opened.status, opened.text).toBe(201)
    const id = (opened.body as { id: string }).id
    // What the approver reads: the segment's conditions beside the diff.
    const shown = (await as(admin, "GET", `${CRS}/${id}`)).body as { segments: ReadonlyArray<{ key: string; name: string; conditions: unknown; updatedAt: string }> }
    expect(shown.segments).toEqual([{ key: "staff", name: "Staff", conditions: staff, updatedAt: expect.any(String) }])
    expect((await as(admin, "POST", `${CRS}/${id}/approve`, {})).status).toBe(200)

    const widened = await as(editor, "PATCH", "/v1/projects/p1/segments/staff", { conditions: everyone })
    expect(widened.status, widened.text).toBe(200)
    const flagVersion = await version("widened")
    const refused = await as(editor, "POST", `${CRS}/${id}/apply`)
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({
      error: { code: "conflict", message: "Segment 'staff' changed since this change request was made; nothing was applied, and its author can update it" }
    })
    expect(await version("widened")).toBe(flagVersion)
    expect(await served("someone@elsewhere.org")).toBe("b")
    expect(((await as(admin, "GET", `${CRS}/${id}`)).body as { status: string }).status).toBe("approved")

    // Brought up to date, it shows the segment as it is now and needs a new approval.
    const updated = await as(editor, "PUT", `${CRS}/${id}`, { changes: [{ flagKey: "widened", targeting: toStaff }] })
    expect(updated.body).toMatchObject({ status: "open", approvals: [], segments: [{ key: "staff", conditions: everyone }] })
    expect((await as(editor, "POST", `${CRS}/${id}/apply`)).status).toBe(409)
    expect((await as(admin, "POST", `${CRS}/${id}/approve`, {})).status).toBe(200)
    expect((await as(editor, "POST", `${CRS}/${id}/apply`)).status).toBe(200)
    expect(await served("someone@elsewhere.org")).toBe("a")
  })
})
