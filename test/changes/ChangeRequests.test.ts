/**
 * Change requests (issue 28) through a real server on SQLite and PostgreSQL, as people signed in
 * with sessions: the happy path (an editor opens, an admin approves, the editor applies: the flag
 * changes once, the audit log names the applier and the request), self-approval refused, approval
 * by a viewer or an editor refused, an update after approval clears the approvals, the conflict when
 * a flag moved on (nothing applied, still approved), two applies at once (one wins, the version
 * goes up once), validation as the PUT's, listing newest first with ?status=, reject and cancel.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Scheduler from "../../src/services/schedules/Scheduler.js"
import { ChangeRequestMessages } from "../../src/domain/changes/ChangeRequestRules.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { makePerson, type Person } from "../http/people.js"
import { changeRequestCalls, CRS, targeting } from "./ChangeRequestCalls.js"


interface Shown {
  readonly id: string
  readonly status: string
  readonly approvals: ReadonlyArray<{ readonly by: { readonly userId?: string } }>
  readonly changes: ReadonlyArray<{ readonly flagKey: string; readonly baseVersion: number; readonly before: unknown; readonly after: unknown }>
  readonly appliedBy: { readonly userId?: string } | null
  readonly requiredApprovals: number
}

describe.each(["sqlite", "postgres"] as const)("change requests (%s)", (backend) => {
  let t: TestServer
  let editor: Person
  let otherEditor: Person
  let admin: Person
  let otherAdmin: Person
  let viewer: Person
  const { key, as, version, open: opened } = changeRequestCalls(() => t)
  const open = async (person: Person, flagKeys: ReadonlyArray<string>, enabled = true) => (await opened(person, flagKeys, enabled)) as Shown

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    for (const flagKey of ["f", "g", "h", "race"]) {
      expect((await key("POST", "/v1/projects/p1/flags", { key: flagKey, type: "string", variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] })).status).toBe(201)
    }
    expect((await key("PATCH", "/v1/projects/p1/environments/production", { protected: true })).status).toBe(200)
    editor = await t.run(makePerson("cr-editor@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
    otherEditor = await t.run(makePerson("cr-editor2@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
    admin = await t.run(makePerson("cr-admin@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
    otherAdmin = await t.run(makePerson("cr-admin2@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
    viewer = await t.run(makePerson("cr-viewer@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("happy path: an editor opens, an admin approves, the editor applies; the audit log names the applier and the request", async () => {
    const base = await version("f")
    const opened = await open(editor, ["f"])
    expect(opened).toMatchObject({
      status: "open",
      approvals: [],
      requiredApprovals: 1,
      author: { type: "user", userId: editor.id, email: editor.email },
      changes: [{ flagKey: "f", baseVersion: base, before: { enabled: false, defaultVariationKey: "a", offVariationKey: "b", rules: [] }, after: targeting(true) }]
    })
    // Not approved yet: nobody applies it.
    const early = await as(editor, "POST", `${CRS}/${opened.id}/apply`)
    expect(early.status, early.text).toBe(409)
    expect(early.body).toEqual({ error: { code: "conflict", message: ChangeRequestMessages.notApproved(0, 1) } })

    const approved = await as(admin, "POST", `${CRS}/${opened.id}/approve`, { comment: "Looks right" })
    expect(approved.status, approved.text).toBe(200)
    expect(approved.body).toMatchObject({ status: "approved", approvals: [{ by: { userId: admin.id }, comment: "Looks right" }] })

    const applied = await as(editor, "POST", `${CRS}/${opened.id}/apply`)
    expect(applied.status, applied.text).toBe(200)
    expect(applied.body).toMatchObject({ status: "applied", appliedBy: { type: "user", userId: editor.id } })
    expect(await version("f")).toBe(base + 1)
    const flag = (await key("GET", "/v1/projects/p1/flags/f")).body as { configs: Array<{ environmentKey: string; enabled: boolean }> }
    expect(flag.configs.find((c) => c.environmentKey === "production")?.enabled).toBe(true)

    const audit = (await key("GET", "/v1/projects/p1/audit?resourceType=flag&resourceKey=f&environment=production")).body as { data: Array<Record<string, unknown>> }
    expect(audit.data[0]).toMatchObject({ action: "targeting.updated", changeRequestId: opened.id, actor: { type: "user", userId: editor.id } })
    const trail = (await key("GET", `/v1/projects/p1/audit?resourceType=change_request&resourceKey=${opened.id}`)).body as { data: Array<{ action: string }> }
    expect(trail.data.map((e) => e.action)).toEqual(["change_request.applied", "change_request.approved", "change_request.opened"])
    // Applied once is applied: a second apply is a 409.
    expect((await as(editor, "POST", `${CRS}/${opened.id}/apply`)).status).toBe(409)
  })

  it("refuses self-approval, approval by a viewer or an editor, and a second approval by the same person", async () => {
    const mine = await open(admin, ["g"])
    const self = await as(admin, "POST", `${CRS}/${mine.id}/approve`, {})
    expect(self.status).toBe(403)
    expect(self.body).toEqual({ error: { code: "forbidden", message: "You cannot approve your own change request" } })
    for (const person of [viewer, editor]) {
      const refused = await as(person, "POST", `${CRS}/${mine.id}/approve`, {})
      expect(refused.status, refused.text).toBe(403)
      expect(refused.body).toEqual({ error: { code: "forbidden", message: "Your role in this project does not allow this" } })
    }
    // A viewer may read, not open.
    expect((await as(viewer, "GET", `${CRS}/${mine.id}`)).status).toBe(200)
    expect((await as(viewer, "POST", CRS, { title: "x", environment: "production", changes: [{ flagKey: "g", targeting: targeting(true) }] })).status).toBe(403)
    expect((await as(otherAdmin, "POST", `${CRS}/${mine.id}/approve`, {})).status).toBe(200)
    const twice = await as(otherAdmin, "POST", `${CRS}/${mine.id}/approve`, {})
    expect(twice.status).toBe(409)
    expect(twice.body).toEqual({ error: { code: "conflict", message: ChangeRequestMessages.approvedTwice } })
    // Only the author or an approver applies it.
    expect((await as(otherEditor, "POST", `${CRS}/${mine.id}/apply`)).body).toEqual({ error: { code: "forbidden", message: ChangeRequestMessages.applyRefused } })
    expect((await as(otherEditor, "POST", `${CRS}/${mine.id}/cancel`)).body).toEqual({ error: { code: "forbidden", message: ChangeRequestMessages.cancelRefused } })
    expect((await as(admin, "POST", `${CRS}/${mine.id}/cancel`)).body).toMatchObject({ status: "cancelled" })
  })

  it("an update after approval clears the approvals; only the author updates", async () => {
    const opened = await open(editor, ["g"])
    expect((await as(admin, "POST", `${CRS}/${opened.id}/approve`, {})).body).toMatchObject({ status: "approved" })
    expect((await as(otherEditor, "PUT", `${CRS}/${opened.id}`, { changes: [{ flagKey: "g", targeting: targeting(false) }] })).body).toEqual({
      error: { code: "forbidden", message: ChangeRequestMessages.authorOnly }
    })
    const updated = await as(editor, "PUT", `${CRS}/${opened.id}`, { title: "Changed", changes: [{ flagKey: "g", targeting: targeting(true, "b") }] })
    expect(updated.status, updated.text).toBe(200)
    expect(updated.body).toMatchObject({ status: "open", approvals: [], title: "Changed", changes: [{ flagKey: "g", after: targeting(true, "b") }] })
    expect((await as(editor, "POST", `${CRS}/${opened.id}/apply`)).status).toBe(409)
    // A rejection says why: a blank comment is no reason.
    for (const comment of ["", "  \n "]) {
      expect((await as(admin, "POST", `${CRS}/${opened.id}/reject`, { comment })).body).toEqual({
        error: { code: "invalid_request", message: "The request is invalid.", details: [{ path: "comment", message: "must say why it is rejected (not blank)" }] }
      })
    }
    expect((await as(admin, "POST", `${CRS}/${opened.id}/reject`, { comment: "Not now" })).body).toMatchObject({ status: "rejected", rejection: { comment: "Not now" } })
    expect((await as(editor, "PUT", `${CRS}/${opened.id}`, { changes: [{ flagKey: "g", targeting: targeting(false) }] })).status).toBe(409)
  })

  it("an update without changes keeps them as they were (same base versions) and edits title, description or applyAt; it still clears the approvals", async () => {
    const opened = await open(editor, ["f"])
    await as(admin, "POST", `${CRS}/${opened.id}/approve`, {})
    // The flag moves on meanwhile: an edit of the words must not quietly re-base the change on it.
    expect((await key("PUT", "/v1/projects/p1/flags/f/targeting", { environment: "production", ...targeting(false, "b") })).status).toBe(200)
    const applyAt = "2031-01-02T03:04:05.000Z"
    const edited = await as(editor, "PUT", `${CRS}/${opened.id}`, { title: "Reworded", description: "Why", applyAt })
    expect(edited.status, edited.text).toBe(200)
    expect(edited.body).toMatchObject({ title: "Reworded", description: "Why", applyAt, status: "open", approvals: [], changes: opened.changes })
    const cleared = await as(editor, "PUT", `${CRS}/${opened.id}`, { description: null, applyAt: null })
    expect(cleared.body).toMatchObject({ title: "Reworded", description: null, applyAt: null, changes: opened.changes })
    // Nothing to change is a mistake, not an update that clears the approvals.
    const empty = await as(editor, "PUT", `${CRS}/${opened.id}`, {})
    expect(empty.status, empty.text).toBe(400)
    expect(empty.body).toEqual({ error: { code: "invalid_request", message: "Nothing to update", details: [{ path: "", message: "must name at least one of title, description, changes, releasePlans, applyAt" }] } })
    expect((await as(editor, "POST", `${CRS}/${opened.id}/cancel`)).status).toBe(200)
  })

  it("validates each change as the PUT would (400, paths under changes[i].targeting), 404 for an unknown flag", async () => {
    const reply = await as(editor, "POST", CRS, {
      title: "Broken",
      environment: "production",
      changes: [{ flagKey: "f", targeting: targeting(true, "nope") }, { flagKey: "g", targeting: { ...targeting(true), environment: "development" } }]
    })
    expect(reply.status, reply.text).toBe(400)
    const details = (reply.body as { error: { details: Array<{ path: string }> } }).error.details.map((d) => d.path)
    expect(details).toEqual(["changes[0].targeting.defaultVariationKey", "changes[1].targeting.environment"])
    expect((await as(editor, "POST", CRS, { title: "x", environment: "production", changes: [] })).status).toBe(400)
    expect((await as(editor, "POST", CRS, { title: "x", environment: "production", changes: [{ flagKey: "nope", targeting: targeting(true) }] })).status).toBe(404)
    expect((await as(editor, "GET", `${CRS}/nope`)).status).toBe(404)
    // Each change alone is fine; together they would make a prerequisite cycle, which the apply
    // would refuse after the approvals: refused when opened, as the PUT refuses a cycle.
    const requiring = (flagKey: string) => ({ ...targeting(true), prerequisites: [{ flagKey, variationKey: "a" }] })
    const cycle = await as(editor, "POST", CRS, { title: "Cycle", environment: "production", changes: [{ flagKey: "f", targeting: requiring("g") }, { flagKey: "g", targeting: requiring("f") }] })
    expect(cycle.status, cycle.text).toBe(400)
    expect((cycle.body as { error: { details: unknown } }).error.details).toEqual([
      { path: "changes", message: 'the changes together would leave the flags unevaluable: flag "f": prerequisites form a cycle: f -> g -> f' }
    ])
  })

  it("the conflict: a flag that moved on is named, nothing is applied, the request stays approved", async () => {
    const opened = await open(editor, ["f", "h"], false)
    await as(admin, "POST", `${CRS}/${opened.id}/approve`, {})
    // A server key writes directly (automation) meanwhile.
    expect((await key("PUT", "/v1/projects/p1/flags/h/targeting", { environment: "production", ...targeting(true, "b") })).status).toBe(200)
    const [f, h] = [await version("f"), await version("h")]
    const conflict = await as(editor, "POST", `${CRS}/${opened.id}/apply`)
    expect(conflict.status, conflict.text).toBe(409)
    expect(conflict.body).toMatchObject({ error: { code: "conflict" } })
    expect((conflict.body as { error: { message: string } }).error.message).toMatch(/^Flag 'h' changed since this change request was made/)
    expect([await version("f"), await version("h")]).toEqual([f, h])
    expect((await as(editor, "GET", `${CRS}/${opened.id}`)).body).toMatchObject({ status: "approved" })
  })

  it("two applies at once: one wins, the version goes up once", async () => {
    const base = await version("race")
    const opened = await open(editor, ["race"])
    await as(admin, "POST", `${CRS}/${opened.id}/approve`, {})
    const replies = await Promise.all([as(editor, "POST", `${CRS}/${opened.id}/apply`), as(admin, "POST", `${CRS}/${opened.id}/apply`)])
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409])
    expect(await version("race")).toBe(base + 1)
    const audit = (await key("GET", "/v1/projects/p1/audit?resourceType=flag&resourceKey=race")).body as { data: Array<{ changeRequestId?: string }> }
    expect(audit.data.filter((e) => e.changeRequestId === opened.id)).toHaveLength(1)
  })

  it("a scheduled change request: not before it is approved, then applied once by two schedulers at the same moment", async () => {
    const base = await version("h")
    const opened = await as(editor, "POST", CRS, {
      title: "Tonight",
      environment: "production",
      applyAt: new Date(Date.now() - 1000).toISOString(),
      changes: [{ flagKey: "h", targeting: targeting(false) }]
    })
    expect(opened.status, opened.text).toBe(201)
    const id = (opened.body as Shown).id
    // Due but not approved: nothing happens.
    await t.run(Scheduler.tick("scheduler-a"))
    expect(await version("h")).toBe(base)
    await as(admin, "POST", `${CRS}/${id}/approve`, {})
    const rounds = await t.run(Effect.all([Scheduler.tick("scheduler-a"), Scheduler.tick("scheduler-b")], { concurrency: "unbounded" }))
    expect(rounds.flat().filter((outcome) => outcome === "applied")).toHaveLength(1)
    expect(await version("h")).toBe(base + 1)
    const shown = (await as(viewer, "GET", `${CRS}/${id}`)).body
    expect(shown).toMatchObject({ status: "applied", appliedBy: { type: "schedule", userId: editor.id }, failure: null })
    // Applied is applied: later rounds leave it alone.
    await t.run(Scheduler.tick("scheduler-c"))
    expect(await version("h")).toBe(base + 1)
  })

  it("a scheduled change request whose flag moved on fails: still approved, the failure said, not tried again until updated", async () => {
    const opened = await open(editor, ["g"], false)
    await as(admin, "POST", `${CRS}/${opened.id}/approve`, {})
    const scheduled = await as(editor, "PUT", `${CRS}/${opened.id}`, { applyAt: new Date(Date.now() - 1000).toISOString(), changes: [{ flagKey: "g", targeting: targeting(false) }] })
    expect(scheduled.body).toMatchObject({ status: "open", approvals: [] })
    await as(admin, "POST", `${CRS}/${opened.id}/approve`, {})
    expect((await key("PUT", "/v1/projects/p1/flags/g/targeting", { environment: "production", ...targeting(true, "b") })).status).toBe(200)
    const moved = await version("g")
    expect(await t.run(Scheduler.tick("scheduler-a"))).toContain("failed")
    const failed = (await as(viewer, "GET", `${CRS}/${opened.id}`)).body as { status: string; failure: string | null }
    expect(failed.status).toBe("approved")
    expect(failed.failure).toMatch(/^Flag 'g' changed since this change request was made/)
    // The failure's audit entry is the scheduler's on its author's behalf, as its apply would have been.
    const trail = (await key("GET", `/v1/projects/p1/audit?resourceType=change_request&resourceKey=${opened.id}`)).body as { data: Array<Record<string, unknown>> }
    expect(trail.data[0]).toMatchObject({ action: "change_request.failed", actor: { type: "schedule", userId: editor.id, email: editor.email } })
    expect(await t.run(Scheduler.tick("scheduler-b"))).not.toContain("failed")
    expect(await version("g")).toBe(moved)
  })

  it("a scheduled request whose author's key was revoked since fails when due, and is not applied", async () => {
    const made = (await key("POST", "/v1/projects/p1/keys", { type: "server", name: "deploy bot" })).body as { id: string; key: string }
    const opened = await request(t.url, "POST", CRS, {
      key: made.key,
      body: { title: "Bot change", environment: "production", applyAt: new Date(Date.now() - 1000).toISOString(), changes: [{ flagKey: "h", targeting: targeting(true, "b") }] }
    })
    expect(opened.status, opened.text).toBe(201)
    const id = (opened.body as Shown).id
    expect((await as(admin, "POST", `${CRS}/${id}/approve`, {})).body).toMatchObject({ status: "approved" })
    expect((await key("DELETE", `/v1/projects/p1/keys/${made.id}`)).status).toBe(204)
    const base = await version("h")
    expect(await t.run(Scheduler.tick("scheduler-a"))).toContain("failed")
    expect(await version("h")).toBe(base)
    const shown = (await as(viewer, "GET", `${CRS}/${id}`)).body as { status: string; failure: string | null }
    expect(shown).toEqual(expect.objectContaining({
      status: "approved",
      failure: "The API key that made this (deploy bot) was revoked; a change is applied only while its author can make it."
    }))
    expect((await as(admin, "POST", `${CRS}/${id}/cancel`)).status).toBe(200)
  })

  it("webhooks subscribe to the change requests' events (opt-in, like the others)", async () => {
    const events = ["change_request.opened", "change_request.approved", "change_request.rejected", "change_request.applied"]
    const made = await key("POST", "/v1/projects/p1/webhooks", { url: "https://hooks.example.com/reviews", events })
    expect(made.status, made.text).toBe(201)
    expect(made.body).toMatchObject({ events })
  })

  it("two approvals at the same moment both count (neither is refused because the other landed first)", async () => {
    expect((await as(admin, "PATCH", "/v1/projects/p1/environments/production", { requiredApprovals: 2 })).status).toBe(200)
    for (let round = 0; round < 4; round++) {
      const opened = await open(editor, ["g"])
      const replies = await Promise.all([as(admin, "POST", `${CRS}/${opened.id}/approve`, {}), as(otherAdmin, "POST", `${CRS}/${opened.id}/approve`, {})])
      expect(replies.map((r) => r.status), replies.map((r) => r.text).join("\n")).toEqual([200, 200])
      expect((await as(viewer, "GET", `${CRS}/${opened.id}`)).body).toMatchObject({ status: "approved", approvals: [{}, {}] })
      expect((await as(editor, "POST", `${CRS}/${opened.id}/cancel`)).status).toBe(200)
    }
    expect((await as(admin, "PATCH", "/v1/projects/p1/environments/production", { requiredApprovals: 1 })).status).toBe(200)
  })

  it("a new requiredApprovals holds for the environment's live requests at once; closed ones keep theirs", async () => {
    const ENV = "/v1/projects/p1/environments/production"
    const counted = async (id: string) => {
      const shown = (await as(viewer, "GET", `${CRS}/${id}`)).body as Shown
      return `${shown.status} ${shown.approvals.length}/${shown.requiredApprovals}`
    }
    const ready = await open(editor, ["f"])
    await as(admin, "POST", `${CRS}/${ready.id}/approve`, {})
    const waiting = await open(editor, ["g"])
    const done = await open(editor, ["h"])
    await as(admin, "POST", `${CRS}/${done.id}/approve`, {})
    expect((await as(editor, "POST", `${CRS}/${done.id}/cancel`)).status).toBe(200)
    expect([await counted(ready.id), await counted(waiting.id)]).toEqual(["approved 1/1", "open 0/1"])

    // Raised: one approval is no longer enough, for the approved request too (nor for the scheduler).
    expect((await as(admin, "PATCH", ENV, { requiredApprovals: 2 })).status).toBe(200)
    expect([await counted(ready.id), await counted(waiting.id), await counted(done.id)]).toEqual(["open 1/2", "open 0/2", "cancelled 1/1"])
    const early = await as(editor, "POST", `${CRS}/${ready.id}/apply`)
    expect(early.body).toEqual({ error: { code: "conflict", message: ChangeRequestMessages.notApproved(1, 2) } })
    const trail = (await key("GET", `/v1/projects/p1/audit?resourceType=change_request&resourceKey=${ready.id}`)).body as { data: Array<Record<string, unknown>> }
    expect(trail.data[0]).toMatchObject({ action: "change_request.updated", actor: { userId: admin.id }, before: { requiredApprovals: 1, status: "approved" }, after: { requiredApprovals: 2, status: "open" } })

    // Lowered: a request that has enough now is approved.
    expect((await as(otherAdmin, "POST", `${CRS}/${waiting.id}/approve`, {})).status).toBe(200)
    expect((await as(admin, "PATCH", ENV, { requiredApprovals: 1 })).status).toBe(200)
    expect([await counted(ready.id), await counted(waiting.id)]).toEqual(["approved 1/1", "approved 1/1"])
    expect((await as(editor, "POST", `${CRS}/${waiting.id}/cancel`)).status).toBe(200)
    expect((await as(editor, "POST", `${CRS}/${ready.id}/cancel`)).status).toBe(200)
  })

  it("approve, cancel and apply take no body at all (their bodies are optional); reject still needs its comment", async () => {
    const opened = await open(editor, ["h"])
    const approved = await as(admin, "POST", `${CRS}/${opened.id}/approve`)
    expect(approved.status, approved.text).toBe(200)
    expect(approved.body).toMatchObject({ status: "approved", approvals: [{ by: { userId: admin.id }, comment: null }] })
    const applied = await as(editor, "POST", `${CRS}/${opened.id}/apply`, {})
    expect(applied.status, applied.text).toBe(200)
    const other = await open(editor, ["h"], false)
    const noReason = await as(admin, "POST", `${CRS}/${other.id}/reject`)
    expect(noReason.status, noReason.text).toBe(400)
    expect((await as(editor, "POST", `${CRS}/${other.id}/cancel`, {})).body).toMatchObject({ status: "cancelled" })
    const third = await open(editor, ["h"], false)
    expect((await as(editor, "POST", `${CRS}/${third.id}/cancel`)).body).toMatchObject({ status: "cancelled" })
  })

  it("a title must say something: a blank one is refused on opening and on update", async () => {
    const blank = (comment: string) => ({ error: { code: "invalid_request", message: "The request is invalid.", details: [{ path: "title", message: comment }] } })
    for (const title of [" ", "  \n\t "]) {
      const refused = await as(editor, "POST", CRS, { title, environment: "production", changes: [{ flagKey: "h", targeting: targeting(true) }] })
      expect(refused.status, refused.text).toBe(400)
      expect(refused.body).toEqual(blank("must say something (not blank)"))
    }
    const opened = await open(editor, ["h"])
    const update = await as(editor, "PUT", `${CRS}/${opened.id}`, { title: "   " })
    expect(update.status, update.text).toBe(400)
    expect(update.body).toEqual(blank("must say something (not blank)"))
    expect(((await as(editor, "GET", `${CRS}/${opened.id}`)).body as { title: string }).title).toBe("Turn h on")
    expect((await as(editor, "POST", `${CRS}/${opened.id}/cancel`)).status).toBe(200)
  })

  it("lists newest first, with ?status=", async () => {
    const all = (await as(viewer, "GET", CRS)).body as { data: Array<{ id: string; createdAt: string; status: string }> }
    expect(all.data.length).toBeGreaterThanOrEqual(5)
    const times = all.data.map((c) => c.createdAt)
    expect([...times].sort().reverse()).toEqual(times)
    const applied = (await as(viewer, "GET", `${CRS}?status=applied`)).body as { data: Array<{ status: string }> }
    expect(applied.data.length).toBeGreaterThanOrEqual(2)
    expect(applied.data.every((c) => c.status === "applied")).toBe(true)
    expect((await as(viewer, "GET", `${CRS}?status=nope`)).status).toBe(400)
  })
})
