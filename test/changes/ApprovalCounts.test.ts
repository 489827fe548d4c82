/**
 * Change requests through a real server on SQLite and PostgreSQL: every answer says of each
 * approval whether it still counts (`counts`, `notCountingReason`) and of the request how many do
 * (`countingApprovals`), judged when it is answered by the rule the apply uses. An approver
 * demoted, disabled or removed since shows as not counting in every answer (list, one, and the
 * writes' answers) and counts again once restored; an approval a key gave (before keys were refused
 * the approve) never counts; the apply agrees with what is shown.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { PeopleMessages } from "../../src/domain/auth/PeopleMessages.js"
import { ChangeRequestMessages } from "../../src/domain/changes/ChangeRequestRules.js"
import type { Role } from "../../src/domain/people/Role.js"
import { ChangeRequestRepository } from "../../src/ports/ChangeRequestRepository.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { makePerson, type Person, removeMember, setRole } from "../http/people.js"
import { changeRequestCalls, CRS, targeting } from "./ChangeRequestCalls.js"


interface ShownApproval {
  readonly by: { readonly userId?: string; readonly keyId?: string }
  readonly counts: boolean
  readonly notCountingReason: string | null
}
interface Shown {
  readonly id: string
  readonly status: string
  readonly approvals: ReadonlyArray<ShownApproval>
  readonly countingApprovals: number
  readonly requiredApprovals: number
}

/** The approvals of an answer as `[who, counts, why not]`, in their order. */
const standings = (shown: Shown) => shown.approvals.map((a) => [a.by.userId ?? a.by.keyId, a.counts, a.notCountingReason])

describe.each(["sqlite", "postgres"] as const)("change requests: each answer says which approvals still count (%s)", (backend) => {
  let t: TestServer
  let editor: Person
  let viewer: Person
  const { key, as } = changeRequestCalls(() => t)
  const ok = async (reply: Promise<{ status: number; text: string; body: unknown }>) => {
    const answered = await reply
    expect(answered.status, answered.text).toBeLessThan(300)
    return answered.body as Shown
  }
  // As the operator: no key changes a member.
  const role = (person: Person, to: Role) => t.run(setRole("p1", person.id, to))
  const admin = (name: string) => t.run(makePerson(`counts-${name}-${backend}@example.com`, { projects: [{ projectId: "p1", role: "admin" }] }))
  /** The request as GET one and GET list answer it: both must agree. */
  const read = async (id: string) => {
    const one = await ok(as(viewer, "GET", `${CRS}/${id}`))
    const listed = (await ok(as(viewer, "GET", CRS)) as unknown as { data: ReadonlyArray<Shown> }).data.find((r) => r.id === id)
    expect(listed).toEqual(one)
    return one
  }
  let flagCount = 0
  /** A request by the editor to a flag of its own, approved by `approvers` (two are required). */
  const approvedBy = async (...approvers: ReadonlyArray<Person>) => {
    const flagKey = `counted-${++flagCount}`
    expect((await key("POST", "/v1/projects/p1/flags", { key: flagKey, type: "string", variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] })).status).toBe(201)
    const opened = await ok(as(editor, "POST", CRS, { title: `Turn ${flagKey} on`, environment: "production", changes: [{ flagKey, targeting: targeting(true) }] }))
    expect(opened).toMatchObject({ approvals: [], countingApprovals: 0, requiredApprovals: 2 })
    let last = opened
    for (const approver of approvers) last = await ok(as(approver, "POST", `${CRS}/${opened.id}/approve`, {}))
    return last
  }

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    expect((await key("PATCH", "/v1/projects/p1/environments/production", { protected: true, requiredApprovals: 2 })).status).toBe(200)
    editor = await t.run(makePerson(`counts-editor-${backend}@example.com`, { projects: [{ projectId: "p1", role: "editor" }] }))
    viewer = await t.run(makePerson(`counts-viewer-${backend}@example.com`, { projects: [{ projectId: "p1", role: "viewer" }] }))
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("an approver made an editor no longer counts in any answer, and counts again once an admin again; the apply agrees", async () => {
    const [first, second, third] = [await admin("demoted-1"), await admin("demoted-2"), await admin("demoted-3")]
    const approved = await approvedBy(first, second)
    expect(approved).toMatchObject({ status: "approved", countingApprovals: 2 })
    expect(standings(approved)).toEqual([[first.id, true, null], [second.id, true, null]])

    await role(first, "editor")
    const demoted = await read(approved.id)
    // The status is the record's; the approval is still listed, marked as no longer counting.
    expect(demoted).toMatchObject({ status: "approved", countingApprovals: 1, requiredApprovals: 2 })
    expect(standings(demoted)).toEqual([[first.id, false, "demoted"], [second.id, true, null]])
    expect((await as(second, "POST", `${CRS}/${approved.id}/apply`)).body).toEqual({ error: { code: "conflict", message: ChangeRequestMessages.notApproved(1, 2) } })
    // A viewer is demoted too.
    await role(first, "viewer")
    expect(standings(await read(approved.id))[0]).toEqual([first.id, false, "demoted"])

    // A third admin's approval answers with every approval judged.
    const third3 = await ok(as(third, "POST", `${CRS}/${approved.id}/approve`, { comment: "ok" }))
    expect(third3.countingApprovals).toBe(2)
    expect(standings(third3)).toEqual([[first.id, false, "demoted"], [second.id, true, null], [third.id, true, null]])
    // Its webhook event carries the request as recorded: the approvals as given, nothing judged.
    const outbox = await t.run(Effect.flatMap(EventOutbox, (events) => events.list("p1")))
    const sent = outbox.map((e) => e.event).filter((e) => e.type === "change_request.approved" && "changeRequest" in e.data && e.data.changeRequest.id === approved.id)
    expect(sent).toHaveLength(3)
    const last = sent.at(-1)!.data as { changeRequest: Record<string, unknown> & { approvals: ReadonlyArray<object> } }
    expect(last.changeRequest.approvals).toHaveLength(3)
    expect(last.changeRequest).not.toHaveProperty("countingApprovals")
    expect(last.changeRequest.approvals.every((a) => !("counts" in a))).toBe(true)

    // Made an admin again, the first approval counts again.
    await role(first, "admin")
    const restored = await read(approved.id)
    expect(restored.countingApprovals).toBe(3)
    expect(standings(restored)).toEqual([[first.id, true, null], [second.id, true, null], [third.id, true, null]])

    // The apply's answer is judged the same way.
    await role(third, "editor")
    const applied = await ok(as(second, "POST", `${CRS}/${approved.id}/apply`))
    expect(applied).toMatchObject({ status: "applied", countingApprovals: 2 })
    expect(standings(applied)).toEqual([[first.id, true, null], [second.id, true, null], [third.id, false, "demoted"]])
  })

  it("a disabled approver no longer counts until enabled again; reject and cancel answers judge approvals too", async () => {
    const [first, second] = [await admin("disabled-1"), await admin("disabled-2")]
    const approved = await approvedBy(first, second)
    await ok(key("PATCH", `/v1/users/${first.id}`, { disabled: true }))
    const disabled = await read(approved.id)
    expect(disabled).toMatchObject({ status: "approved", countingApprovals: 1 })
    expect(standings(disabled)).toEqual([[first.id, false, "disabled"], [second.id, true, null]])
    expect((await as(second, "POST", `${CRS}/${approved.id}/apply`)).body).toEqual({ error: { code: "conflict", message: ChangeRequestMessages.notApproved(1, 2) } })
    await ok(key("PATCH", `/v1/users/${first.id}`, { disabled: false }))
    expect((await read(approved.id)).countingApprovals).toBe(2)

    await ok(key("PATCH", `/v1/users/${first.id}`, { disabled: true }))
    const cancelled = await ok(as(editor, "POST", `${CRS}/${approved.id}/cancel`))
    expect(cancelled).toMatchObject({ status: "cancelled", countingApprovals: 1 })
    expect(standings(cancelled)[0]).toEqual([first.id, false, "disabled"])

    const other = await approvedBy(second)
    const rejected = await ok(as(second, "POST", `${CRS}/${other.id}/reject`, { comment: "no" }))
    expect(rejected).toMatchObject({ status: "rejected", countingApprovals: 1 })
    expect(standings(rejected)).toEqual([[second.id, true, null]])
    await ok(key("PATCH", `/v1/users/${first.id}`, { disabled: false }))
  })

  it("a removed member no longer counts, counts again once added back; an update's answer has no approvals left", async () => {
    const [first, second] = [await admin("removed-1"), await admin("removed-2")]
    const approved = await approvedBy(first, second)
    await t.run(removeMember("p1", first.id))
    const removed = await read(approved.id)
    expect(removed).toMatchObject({ status: "approved", countingApprovals: 1 })
    expect(standings(removed)).toEqual([[first.id, false, "removed"], [second.id, true, null]])
    expect((await as(editor, "POST", `${CRS}/${approved.id}/apply`)).body).toEqual({ error: { code: "conflict", message: ChangeRequestMessages.notApproved(1, 2) } })
    await role(first, "admin")
    expect(standings(await read(approved.id))).toEqual([[first.id, true, null], [second.id, true, null]])

    const updated = await ok(as(editor, "PUT", `${CRS}/${approved.id}`, { title: "Reworded" }))
    expect(updated).toMatchObject({ status: "open", approvals: [], countingApprovals: 0 })
  })

  it("a key's approval is refused and changes nothing; one a key gave before that rule does not count, and the apply agrees", async () => {
    const made = (await key("POST", "/v1/projects/p1/keys", { type: "server", name: `approver-${backend}` })).body as { id: string; key: string }
    const first = await admin("key-1")
    const approved = await approvedBy(first)
    const byKey = await request(t.url, "POST", `${CRS}/${approved.id}/approve`, { key: made.key, body: {} })
    expect({ status: byKey.status, body: byKey.body }).toEqual({ status: 403, body: { error: { code: "forbidden", message: PeopleMessages.keyApproves } } })
    expect(await read(approved.id)).toMatchObject({ countingApprovals: 1 })
    // An approval by the key as the storage may still hold it from before keys were refused.
    await t.run(Effect.gen(function* () {
      const repo = yield* ChangeRequestRepository
      const stored = Option.getOrThrow(yield* repo.get("p1", approved.id))
      const byOldKey = { by: { type: "key" as const, keyId: made.id, keyName: `approver-${backend}` }, at: new Date().toISOString(), comment: null }
      expect(yield* repo.replace({ ...stored, status: "approved", approvals: [...stored.approvals, byOldKey], version: stored.version + 1 }, stored.version)).toBe(true)
    }))
    const withOld = await read(approved.id)
    expect(withOld).toMatchObject({ status: "approved", countingApprovals: 1 })
    expect(standings(withOld)).toEqual([[first.id, true, null], [made.id, false, "key"]])
    const apply = await as(editor, "POST", `${CRS}/${approved.id}/apply`)
    expect(apply.status, apply.text).toBe(409)
    expect((await key("DELETE", `/v1/projects/p1/keys/${made.id}`)).status).toBe(204)
    const revoked = await read(approved.id)
    expect(revoked).toMatchObject({ status: "approved", countingApprovals: 1 })
    expect(standings(revoked)).toEqual([[first.id, true, null], [made.id, false, "revoked"]])
  })
})
