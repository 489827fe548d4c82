/**
 * A release plan in a protected environment through a real server (scheduler running), on SQLite
 * and PostgreSQL, as people signed in with sessions: an editor's direct start is 409
 * change_request_required; the editor opens a change request to start it, an admin approves; an
 * edit of the plan after the approval makes the apply the 409 a moved flag gets (nothing starts);
 * brought up to date and approved again, the apply starts the plan, and its steps then advance in
 * the protected environment without any approval, each a targeting write by the plan; a person's
 * direct targeting change is still refused there. Resuming after a pause by hand is direct.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ChangeRequestMessages } from "../../src/domain/changes/ChangeRequestRules.js"
import { changeRequestCalls, CRS } from "../changes/ChangeRequestCalls.js"
import { freshStorage } from "../fixtures/databases.js"
import { startServer, type TestServer } from "../http/fixtures.js"
import { makePerson, type Person } from "../http/people.js"

const FLAG = "/v1/projects/p1/flags/ramp"
const PLANS = `${FLAG}/release-plans`

interface Plan {
  readonly id: string
  readonly status: string
  readonly currentStep: number | null
  readonly version: number
}

/** Polls `read` until `done` holds (the scheduler runs every second), at most `ms`. */
const until = async <A>(read: () => Promise<A>, done: (a: A) => boolean, ms = 15_000): Promise<A> => {
  const end = Date.now() + ms
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > end) return value
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe.each(["sqlite", "postgres"] as const)("a release plan in a protected environment (%s)", (backend) => {
  let t: TestServer
  let editor: Person
  let admin: Person
  const { key, as } = changeRequestCalls(() => t)
  const plan = async (id: string) => (await key("GET", `${PLANS}/${id}`)).body as Plan
  const weights = async () => {
    const flag = (await key("GET", FLAG)).body as { configs: Array<{ environmentKey: string; rules: Array<{ rollout?: { variations: Array<{ variationKey: string; weight: number }> } }> }> }
    return flag.configs.find((c) => c.environmentKey === "production")!.rules[0]!.rollout?.variations.map((v) => [v.variationKey, v.weight])
  }

  beforeAll(async () => {
    t = await startServer(freshStorage(backend), { schedules: true })
    expect((await key("POST", "/v1/projects/p1/flags", { key: "ramp", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })).status).toBe(201)
    const rule = { enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "all", conditions: [], variationKey: "off" }] }
    expect((await key("PUT", `${FLAG}/targeting`, { environment: "production", ...rule })).status).toBe(200)
    expect((await key("PATCH", "/v1/projects/p1/environments/production", { protected: true })).status).toBe(200)
    editor = await t.run(makePerson("rp-editor@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
    admin = await t.run(makePerson("rp-admin@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("start by change request: approved once, refused after an edit, then started; its steps advance without approvals", async () => {
    const created = await as(editor, "POST", PLANS, {
      environment: "production",
      ruleId: "all",
      variationKey: "on",
      steps: [{ weight: 10_000, holdMinutes: 0.05 }, { weight: 30_000, holdMinutes: 0.05 }]
    })
    expect(created.status, created.text).toBe(201)
    const id = (created.body as Plan).id

    const direct = await as(editor, "POST", `${PLANS}/${id}/start`)
    expect(direct.status, direct.text).toBe(409)
    expect(direct.body).toEqual({ error: { code: "change_request_required", message: "Changes to production need an approved change request" } })

    const proposal = { title: "Ramp up the new flag", environment: "production", releasePlans: [{ flagKey: "ramp", planId: id, action: "start" }] }
    const opened = await as(editor, "POST", CRS, proposal)
    expect(opened.status, opened.text).toBe(201)
    const request = opened.body as { id: string; changes: unknown[]; releasePlans: Array<{ planId: string; baseVersion: number; plan: Plan }> }
    expect(request.changes).toEqual([])
    expect(request.releasePlans).toMatchObject([{ flagKey: "ramp", planId: id, action: "start", baseVersion: 1, plan: { id, status: "draft", steps: [{ weight: 10_000 }, { weight: 30_000 }] } }])
    expect((await as(admin, "POST", `${CRS}/${request.id}/approve`, { comment: "Ramp it" })).status).toBe(200)

    // Edited after the approval: the apply is refused as for a flag that moved on, and nothing starts.
    expect((await as(editor, "PATCH", `${PLANS}/${id}`, { steps: [{ weight: 20_000, holdMinutes: 0.05 }, { weight: 30_000, holdMinutes: 0.05 }] })).status).toBe(200)
    const refused = await as(editor, "POST", `${CRS}/${request.id}/apply`)
    expect(refused.status, refused.text).toBe(409)
    expect(refused.body).toEqual({ error: { code: "conflict", message: ChangeRequestMessages.plansMovedOn([id]) } })
    expect((await plan(id)).status).toBe("draft")
    expect((await as(editor, "GET", `${CRS}/${request.id}`)).body).toMatchObject({ status: "approved" })

    // Brought up to date by its author (approvals cleared), approved again, applied.
    const updated = await as(editor, "PUT", `${CRS}/${request.id}`, { releasePlans: proposal.releasePlans })
    expect(updated.status, updated.text).toBe(200)
    expect(updated.body).toMatchObject({ status: "open", approvals: [], releasePlans: [{ baseVersion: 2 }] })
    expect((await as(admin, "POST", `${CRS}/${request.id}/approve`, {})).status).toBe(200)
    const applied = await as(editor, "POST", `${CRS}/${request.id}/apply`)
    expect(applied.status, applied.text).toBe(200)
    expect(applied.body).toMatchObject({ status: "applied", appliedBy: { type: "user", userId: editor.id } })
    expect(await plan(id)).toMatchObject({ status: "running", startedBy: { type: "user", userId: editor.id } })

    // The steps: targeting writes by the plan, in the protected environment, with no approval.
    const done = await until(() => plan(id), (p) => p.currentStep === 1)
    expect(done.currentStep).toBe(1)
    expect(await weights()).toEqual([["on", 30_000], ["off", 70_000]])
    const audit = (await key("GET", "/v1/projects/p1/audit?resourceType=flag&resourceKey=ramp&environment=production")).body as {
      data: Array<{ action: string; actor: { type: string; id?: string } }>
    }
    expect(audit.data.filter((e) => e.actor.type === "releasePlan").map((e) => [e.action, e.actor.id])).toEqual([["targeting.updated", id], ["targeting.updated", id]])
    const planAudit = (await key("GET", `/v1/projects/p1/audit?resourceType=release_plan&resourceKey=${id}`)).body as {
      data: Array<{ action: string; changeRequestId?: string }>
    }
    expect(planAudit.data.find((e) => e.action === "release_plan.started")?.changeRequestId).toBe(request.id)

    // People still cannot change the targeting there directly; pausing and resuming by hand is direct.
    const flag = (await key("GET", FLAG)).body as { configs: Array<{ environmentKey: string; rules: unknown[] }> }
    const put = await as(editor, "PUT", `${FLAG}/targeting`, {
      environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: flag.configs.find((c) => c.environmentKey === "production")!.rules
    })
    expect(put.status, put.text).toBe(409)
    expect((await as(editor, "POST", `${PLANS}/${id}/pause`)).status).toBe(200)
    const resumed = await as(editor, "POST", `${PLANS}/${id}/resume`)
    expect(resumed.status, resumed.text).toBe(200)
    expect((await as(editor, "POST", `${PLANS}/${id}/cancel`)).status).toBe(200)
  }, 60_000)
})
