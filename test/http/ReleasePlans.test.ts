/**
 * The release plan routes over HTTP (the standalone server on the in-memory store, no scheduler:
 * statuses move by the routes alone): a plan's life through create, update, start, pause, resume,
 * cancel and delete with the bodies the contract gives, every transition its status table refuses
 * answered 409 `conflict` with the table's message, a plan's rules as 400 `invalid_request` with
 * each problem's path, 404s, one plan holding a flag's environment at a time, a person's direct
 * targeting change pausing a running plan (resume then needs `confirm`), and a person's start in
 * a protected environment needing a change request. The routes take no If-Match: a plan's
 * `version` grows with every change, which the stepper's compare-and-set uses.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { asPerson, makePerson, type Person } from "./people.js"
import { type Reply, request, startServer, type TestServer } from "./fixtures.js"

let t: TestServer
let person: Person
beforeAll(async () => {
  t = await startServer()
  person = await t.run(makePerson("ramper@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
})
afterAll(async () => {
  await t.close()
})

const call = (method: string, path: string, body?: unknown): Promise<Reply> =>
  request(t.url, method, path, { key: t.keys.scoped, ...(body === undefined ? {} : { body }) })

const FLAGS = "/v1/projects/p1/flags"
const rule = { id: "ramp", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 0 }, { variationKey: "off", weight: 100_000 }] } }
const targeting = { environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [rule] }
const steps = [{ weight: 5_000, holdMinutes: 60 }, { weight: 50_000, holdMinutes: 60 }, { weight: 100_000, holdMinutes: 60 }]
const body = { environment: "production", ruleId: "ramp", variationKey: "on", steps }

interface Plan {
  readonly id: string
  readonly status: string
  readonly version: number
  readonly onHarm: string
  readonly alpha: number
  readonly currentStep: number | null
  readonly nextStepAt: string | null
  readonly pausedBy: string | null
  readonly baseline: ReadonlyArray<{ variationKey: string; weight: number }> | null
  readonly startedBy: { readonly type: string } | null
}

interface Problem {
  readonly error: { readonly code: string; readonly message: string; readonly details?: ReadonlyArray<{ path: string; message: string }> }
}

/** A boolean flag with the rule "ramp" in production. */
const givenFlag = async (key: string) => {
  const made = await call("POST", FLAGS, { key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
  expect(made.status, made.text).toBe(201)
  const set = await call("PUT", `${FLAGS}/${key}/targeting`, targeting)
  expect(set.status, set.text).toBe(200)
}

const plansOf = (flagKey: string) => `${FLAGS}/${flagKey}/release-plans`

const conflict = (reply: Reply, message: string) => {
  expect(reply.status, reply.text).toBe(409)
  expect(reply.body).toEqual({ error: { code: "conflict", message } })
}

describe("release plan routes", () => {
  it("a plan's life: draft, update, start, pause, resume, cancel, delete, each answered with the plan", async () => {
    await givenFlag("life")
    const created = await call("POST", plansOf("life"), body)
    expect(created.status, created.text).toBe(201)
    const draft = created.body as Plan
    expect(draft).toMatchObject({ status: "draft", onHarm: "pause", alpha: 0.05, currentStep: null, nextStepAt: null, baseline: null, startedBy: null })

    const listed = await call("GET", plansOf("life"))
    expect(listed.status).toBe(200)
    expect((listed.body as { data: Array<Plan> }).data.map((p) => p.id)).toEqual([draft.id])
    const got = await call("GET", `${plansOf("life")}/${draft.id}`)
    expect(got.body).toEqual(draft)

    const updated = await call("PATCH", `${plansOf("life")}/${draft.id}`, { onHarm: "rollback", alpha: 0.01 })
    expect(updated.status, updated.text).toBe(200)
    expect(updated.body).toMatchObject({ status: "draft", onHarm: "rollback", alpha: 0.01, version: draft.version + 1 })

    const started = await call("POST", `${plansOf("life")}/${draft.id}/start`)
    expect(started.status, started.text).toBe(200)
    const running = started.body as Plan
    // Its first step is due at once (the scheduler applies it); the rule's other variations are its baseline.
    expect(running).toMatchObject({ status: "running", currentStep: null, baseline: [{ variationKey: "off", weight: 100_000 }], startedBy: { type: "key" } })
    expect(Date.parse(running.nextStepAt!)).toBeLessThanOrEqual(Date.now())
    expect(running.version).toBe(draft.version + 2)

    const paused = await call("POST", `${plansOf("life")}/${draft.id}/pause`)
    expect(paused.status, paused.text).toBe(200)
    expect(paused.body).toMatchObject({ status: "paused", pausedBy: "manual", nextStepAt: null })
    // An empty body, and none at all, both resume.
    const resumed = await call("POST", `${plansOf("life")}/${draft.id}/resume`, {})
    expect(resumed.status, resumed.text).toBe(200)
    expect(resumed.body).toMatchObject({ status: "running", pausedBy: null })
    expect((await call("POST", `${plansOf("life")}/${draft.id}/pause`)).status).toBe(200)
    const resumedBare = await request(t.url, "POST", `${plansOf("life")}/${draft.id}/resume`, { key: t.keys.scoped })
    expect(resumedBare.status, resumedBare.text).toBe(200)

    const cancelled = await call("POST", `${plansOf("life")}/${draft.id}/cancel`)
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(cancelled.body).toMatchObject({ status: "cancelled", nextStepAt: null })
    const removed = await call("DELETE", `${plansOf("life")}/${draft.id}`)
    expect(removed.status, removed.text).toBe(204)
    const gone = await call("GET", `${plansOf("life")}/${draft.id}`)
    expect(gone.status).toBe(404)
    expect((gone.body as Problem).error.code).toBe("not_found")

    // Each change is in the audit log under the plan, by the key, in order.
    const log = await call("GET", `/v1/projects/p1/audit?resourceType=release_plan&resourceKey=${draft.id}`)
    expect((log.body as { data: Array<{ action: string }> }).data.map((e) => e.action).reverse()).toEqual([
      "release_plan.created",
      "release_plan.updated",
      "release_plan.started",
      "release_plan.paused",
      "release_plan.resumed",
      "release_plan.paused",
      "release_plan.resumed",
      "release_plan.cancelled",
      "release_plan.deleted"
    ])
  })

  it("transitions the status table refuses are 409 conflict with its message", async () => {
    await givenFlag("refusals")
    const id = ((await call("POST", plansOf("refusals"), body)).body as Plan).id
    const at = (action: string) => `${plansOf("refusals")}/${id}/${action}`
    const refused = (status: string, action: string, allowed: string) => `Release plan '${id}' is ${status}; ${action} is allowed only when it is ${allowed}`

    conflict(await call("POST", at("pause")), refused("draft", "pause", "running"))
    conflict(await call("POST", at("resume"), {}), refused("draft", "resume", "paused or harmed"))
    expect((await call("POST", at("start"))).status).toBe(200)
    conflict(await call("POST", at("start")), refused("running", "start", "draft"))
    conflict(await call("PATCH", `${plansOf("refusals")}/${id}`, { onHarm: "rollback" }), refused("running", "update", "draft"))
    conflict(await call("DELETE", `${plansOf("refusals")}/${id}`), refused("running", "delete", "draft or completed or cancelled"))
    conflict(await call("POST", at("resume"), {}), refused("running", "resume", "paused or harmed"))

    // One plan holds a flag's environment at a time.
    const rival = ((await call("POST", plansOf("refusals"), body)).body as Plan).id
    conflict(await call("POST", `${plansOf("refusals")}/${rival}/start`), `Release plan '${id}' already ramps flag 'refusals' in 'production'; cancel it first`)

    expect((await call("POST", at("cancel"))).status).toBe(200)
    conflict(await call("POST", at("cancel")), refused("cancelled", "cancel", "draft or running or paused or harmed"))
    conflict(await call("POST", at("pause")), refused("cancelled", "pause", "running"))
    // Once the first is cancelled, the rival may start.
    expect((await call("POST", `${plansOf("refusals")}/${rival}/start`)).status).toBe(200)
  })

  it("a plan's rules are 400 invalid_request naming each problem; unknown flags and plans are 404", async () => {
    await givenFlag("rules")
    const bad = await call("POST", plansOf("rules"), {
      ...body,
      ruleId: "nope",
      variationKey: "maybe",
      steps: [{ weight: 50_000, holdMinutes: 0.01 }, { weight: 40_000, holdMinutes: 1 }]
    })
    expect(bad.status, bad.text).toBe(400)
    const problem = bad.body as Problem
    expect(problem.error.code).toBe("invalid_request")
    expect(problem.error.details!.map((d) => d.path).sort()).toEqual(["ruleId", "steps[0].holdMinutes", "steps[1].weight", "variationKey"])

    const unknownField = await call("POST", plansOf("rules"), { ...body, speed: "fast" })
    expect(unknownField.status, unknownField.text).toBe(400)

    const id = ((await call("POST", plansOf("rules"), body)).body as Plan).id
    const badUpdate = await call("PATCH", `${plansOf("rules")}/${id}`, { alpha: 0.9 })
    expect(badUpdate.status, badUpdate.text).toBe(400)
    expect((badUpdate.body as Problem).error.details).toEqual([{ path: "alpha", message: "must be greater than 0 and at most 0.5" }])

    for (const [method, path] of [
      ["GET", plansOf("no-such-flag")],
      ["POST", plansOf("no-such-flag")],
      ["GET", `${plansOf("rules")}/rp-missing`],
      ["POST", `${plansOf("rules")}/rp-missing/start`],
      ["DELETE", `${plansOf("rules")}/rp-missing`]
    ] as const) {
      const reply = await call(method, path, method === "POST" && path.endsWith("release-plans") ? body : undefined)
      expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(404)
      expect((reply.body as Problem).error.code).toBe("not_found")
    }
    // A plan is found only under its own flag.
    await givenFlag("rules-other")
    expect((await call("GET", `${plansOf("rules-other")}/${id}`)).status).toBe(404)
  })

  it("a person's direct change to the flag's targeting pauses its running plan; resuming then needs confirm", async () => {
    await givenFlag("handmade")
    const id = ((await call("POST", plansOf("handmade"), body)).body as Plan).id
    expect((await call("POST", `${plansOf("handmade")}/${id}/start`)).status).toBe(200)
    // A key's change is automation: the plan keeps running.
    expect((await call("PUT", `${FLAGS}/handmade/targeting`, targeting)).status).toBe(200)
    expect(((await call("GET", `${plansOf("handmade")}/${id}`)).body as Plan).status).toBe("running")

    const changed = await asPerson(t.url, person.cookie, "PUT", `${FLAGS}/handmade/targeting`, targeting)
    expect(changed.status, changed.text).toBe(200)
    expect((await call("GET", `${plansOf("handmade")}/${id}`)).body).toMatchObject({ status: "paused", pausedBy: "targetingChanged" })
    const unconfirmed = await call("POST", `${plansOf("handmade")}/${id}/resume`, {})
    expect(unconfirmed.status, unconfirmed.text).toBe(409)
    expect((unconfirmed.body as Problem).error.message).toContain(`resume with { "confirm": true }`)
    const confirmed = await call("POST", `${plansOf("handmade")}/${id}/resume`, { confirm: true })
    expect(confirmed.status, confirmed.text).toBe(200)
    expect(confirmed.body).toMatchObject({ status: "running", pausedBy: null })
  })

  it("in a protected environment a person's start needs a change request; a server key starts directly", async () => {
    const made = await call("POST", "/v1/projects/p1/environments", { key: "guarded", name: "Guarded" })
    expect(made.status, made.text).toBe(201)
    const flag = await call("POST", FLAGS, { key: "guarded-flag", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
    expect(flag.status, flag.text).toBe(201)
    expect((await call("PUT", `${FLAGS}/guarded-flag/targeting`, { ...targeting, environment: "guarded" })).status).toBe(200)
    expect((await call("PATCH", "/v1/projects/p1/environments/guarded", { protected: true })).status).toBe(200)
    const id = ((await call("POST", plansOf("guarded-flag"), { ...body, environment: "guarded" })).body as Plan).id

    const byPerson = await asPerson(t.url, person.cookie, "POST", `${plansOf("guarded-flag")}/${id}/start`)
    expect(byPerson.status, byPerson.text).toBe(409)
    expect((byPerson.body as Problem).error.code).toBe("change_request_required")
    expect(((await call("GET", `${plansOf("guarded-flag")}/${id}`)).body as Plan).status).toBe("draft")
    const byKey = await call("POST", `${plansOf("guarded-flag")}/${id}/start`)
    expect(byKey.status, byKey.text).toBe(200)
  })
})
