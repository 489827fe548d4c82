/**
 * A person's scheduled changes are applied only while that person can still make them, through a
 * real server on SQLite and PostgreSQL: when a schedule (or a scheduled change request) comes due,
 * its author must exist, not be disabled and still be an editor or admin of the project (or a
 * global admin); otherwise it is `failed` with the reason and nothing changes. Disabling a person
 * through the API cancels their pending schedules at once, each with a `schedule.cancelled` entry
 * naming who disabled them.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { UserRepository } from "../../src/ports/UserRepository.js"
import * as Scheduler from "../../src/services/schedules/Scheduler.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { asPerson, makePerson, type Person } from "../http/people.js"

const targeting = (enabled: boolean) => ({ enabled, defaultVariationKey: "a", offVariationKey: "b", rules: [] })

interface ShownSchedule {
  readonly id: string
  readonly status: string
  readonly reason: string | null
}

describe.each(["sqlite", "postgres"] as const)("a person's scheduled changes (%s)", (backend) => {
  let t: TestServer
  let root: Person
  const key = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
  const editorOf = (email: string) => t.run(makePerson(email, { projects: [{ projectId: "p1", role: "editor" }] }))
  const makeFlag = async (flagKey: string) => {
    const made = await key("POST", "/v1/projects/p1/flags", { key: flagKey, type: "string", variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] })
    expect(made.status, made.text).toBe(201)
  }
  const schedule = async (person: Person, flagKey: string, at: string) => {
    const reply = await asPerson(t.url, person.cookie, "POST", `/v1/projects/p1/flags/${flagKey}/schedules`, { environment: "production", at, targeting: targeting(true) })
    expect(reply.status, reply.text).toBe(201)
    return reply.body as ShownSchedule
  }
  const scheduleOf = async (flagKey: string, id: string) =>
    ((await key("GET", `/v1/projects/p1/flags/${flagKey}/schedules`)).body as { data: Array<ShownSchedule> }).data.find((s) => s.id === id)
  const productionEnabled = async (flagKey: string) =>
    ((await key("GET", `/v1/projects/p1/flags/${flagKey}`)).body as { configs: Array<{ environmentKey: string; enabled: boolean }> }).configs.find(
      (c) => c.environmentKey === "production"
    )?.enabled
  /** Changes behind the use cases' back, as a schedule that escaped a cancellation would see them. */
  const disableDirectly = (userId: string) =>
    t.run(
      Effect.gen(function* () {
        const users = yield* UserRepository
        const user = Option.getOrThrow(yield* users.get(userId))
        yield* users.update({ ...user, disabledAt: new Date().toISOString() })
      })
    )

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    root = await t.run(makePerson("root@example.com", { admin: true }))
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("when due: failed, never applied, for a disabled, removed or demoted author; applied for one who still may", async () => {
    const disabled = await editorOf("sched-disabled@example.com")
    const removed = await editorOf("sched-removed@example.com")
    const demoted = await editorOf("sched-demoted@example.com")
    const staying = await editorOf("sched-staying@example.com")
    const at = new Date(Date.now() + 1_500).toISOString()
    const made: Record<string, ShownSchedule> = {}
    for (const [flagKey, person] of [["d", disabled], ["r", removed], ["m", demoted], ["s", staying]] as const) {
      await makeFlag(flagKey)
      made[flagKey] = await schedule(person, flagKey, at)
    }
    await disableDirectly(disabled.id)
    await t.run(Effect.flatMap(UserRepository, (users) => users.removeMembership(removed.id, "p1")))
    await t.run(Effect.flatMap(UserRepository, (users) => users.putMembership(demoted.id, "p1", "viewer")))
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    await t.run(Scheduler.tick("scheduler-a"))

    const expected = { d: "was disabled", r: "is no longer a member of this project", m: "can no longer change flags in this project (now viewer)" }
    for (const [flagKey, words] of Object.entries(expected)) {
      const shown = await scheduleOf(flagKey, made[flagKey]!.id)
      expect(shown?.status, flagKey).toBe("failed")
      expect(shown?.reason, flagKey).toContain(words)
      expect(await productionEnabled(flagKey), flagKey).toBe(false)
    }
    expect((await scheduleOf("s", made["s"]!.id))?.status).toBe("applied")
    expect(await productionEnabled("s")).toBe(true)
  })

  it("disabling a person through the API cancels their pending schedules, audited as the admin who did it", async () => {
    const leaving = await editorOf("sched-leaving@example.com")
    await makeFlag("l")
    const pending = await schedule(leaving, "l", "2998-03-01T09:00:00Z")
    const disabling = await asPerson(t.url, root.cookie, "PATCH", `/v1/users/${leaving.id}`, { disabled: true })
    expect(disabling.status, disabling.text).toBe(200)
    expect((await scheduleOf("l", pending.id))?.status).toBe("cancelled")
    const audit = await key("GET", `/v1/projects/p1/audit?resourceType=schedule&resourceKey=${pending.id}`)
    const entries = (audit.body as { data: Array<{ action: string; actor: { type: string; userId?: string }; after: { status: string } }> }).data
    expect(entries.map((e) => e.action)).toEqual(["schedule.cancelled", "schedule.created"])
    expect(entries[0]).toMatchObject({ actor: { type: "user", userId: root.id }, after: { status: "cancelled" } })
  })

  it("a scheduled change request of an author disabled since: failed with the reason, nothing applied", async () => {
    await makeFlag("c")
    expect((await key("PATCH", "/v1/projects/p1/environments/production", { protected: true })).status).toBe(200)
    try {
      const author = await editorOf("cr-author@example.com")
      const approver = await t.run(makePerson("cr-approver@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
      const CRS = "/v1/projects/p1/change-requests"
      const opened = await asPerson(t.url, author.cookie, "POST", CRS, {
        title: "Later",
        environment: "production",
        applyAt: new Date(Date.now() - 1_000).toISOString(),
        changes: [{ flagKey: "c", targeting: targeting(true) }]
      })
      expect(opened.status, opened.text).toBe(201)
      const id = (opened.body as { id: string }).id
      expect((await asPerson(t.url, approver.cookie, "POST", `${CRS}/${id}/approve`, {})).status).toBe(200)
      await disableDirectly(author.id)
      expect(await t.run(Scheduler.tick("scheduler-b"))).toContain("failed")
      const shown = (await key("GET", `${CRS}/${id}`)).body as { status: string; failure: string | null }
      expect(shown.status).toBe("approved")
      expect(shown.failure).toContain("was disabled")
      expect(await productionEnabled("c")).toBe(false)
    } finally {
      expect((await key("PATCH", "/v1/projects/p1/environments/production", { protected: false })).status).toBe(200)
    }
  })
})
