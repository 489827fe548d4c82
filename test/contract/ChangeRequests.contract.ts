import { expect } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { type Actor, CurrentActor } from "../../src/domain/audit/Actor.js"
import type { StoredChangeRequest } from "../../src/domain/changes/ChangeRequest.js"
import { ChangeRequestRepository } from "../../src/ports/ChangeRequestRepository.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { ChangeRequests } from "../../src/services/changes/ChangeRequests.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { givenApprover } from "./Approver.js"
import { type Contract, givenFlag, givenProject } from "./Backend.js"

/**
 * Change requests: the repository's round trip, its compare-and-set and its lease, and the use
 * case applying a request exactly once (its flags' changes and its own status in one transaction),
 * or not at all when a flag moved on, on every backend.
 */

const OPERATOR: Actor = { type: "cli" }
const APPROVER: Actor = { type: "key", keyId: "k-approver", keyName: "approver" }
const on = { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }

const stored = (projectId: string, overrides: Partial<StoredChangeRequest> = {}): StoredChangeRequest => ({
  id: `cr-${Math.random().toString(36).slice(2, 12)}`,
  projectId,
  environment: "production",
  title: "Turn it on",
  description: null,
  status: "open",
  author: { type: "user", userId: "u1", email: "edna@example.com" },
  createdAt: "2026-11-23T00:00:00.000Z",
  updatedAt: "2026-11-23T00:00:00.000Z",
  segments: [],
  releasePlans: [],
  changes: [{ flagKey: "flag", baseVersion: 1, before: null, after: { ...on, rules: [{ id: "r1", conditions: [{ attribute: "plan", operator: "in", values: ["pro", 1, true] }], variationKey: "on" }] } }],
  approvals: [],
  requiredApprovals: 1,
  applyAt: null,
  rejection: null,
  appliedAt: null,
  appliedBy: null,
  failure: null,
  version: 1,
  ...overrides
})

const as = <A, E, R>(actor: Actor, effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, CurrentActor, actor)

export const changeRequestContract: Contract = (it) => {
  it.effect("insert, get and list round-trip a change request; list is newest first, of one status when named", () =>
    Effect.gen(function* () {
      const repo = yield* ChangeRequestRepository
      const projectId = yield* givenProject("production")
      const first = stored(projectId)
      const second = stored(projectId, { status: "approved", applyAt: "2027-01-01T00:00:00.000Z" })
      for (const r of [first, second]) yield* repo.insert(r)
      expect(yield* repo.get(projectId, first.id)).toEqual(Option.some(first))
      expect(Option.isNone(yield* repo.get("another-project", first.id))).toBe(true)
      expect((yield* repo.list(projectId)).map((r) => r.id)).toEqual([second.id, first.id])
      expect((yield* repo.list(projectId, "approved")).map((r) => r.id)).toEqual([second.id])
      expect(Either.isLeft(yield* Effect.either(repo.insert(first)))).toBe(true)
    }))

  it.effect("replace is a compare-and-set on the version", () =>
    Effect.gen(function* () {
      const repo = yield* ChangeRequestRepository
      const projectId = yield* givenProject("production")
      const request = stored(projectId)
      yield* repo.insert(request)
      const approved = { ...request, status: "approved" as const, version: 2 }
      expect(yield* repo.replace(approved, 1)).toBe(true)
      expect(yield* repo.replace({ ...request, status: "cancelled", version: 2 }, 1)).toBe(false)
      expect(yield* repo.get(projectId, request.id)).toEqual(Option.some(approved))
    }))

  it.effect("claimDue leases approved requests whose time has come and that did not fail, earliest first", () =>
    Effect.gen(function* () {
      const repo = yield* ChangeRequestRepository
      const projectId = yield* givenProject("production")
      const later = stored(projectId, { status: "approved", applyAt: "2020-01-02T00:00:00.000Z" })
      const earlier = stored(projectId, { status: "approved", applyAt: "2020-01-01T00:00:00.000Z" })
      const notDue = stored(projectId, { status: "approved", applyAt: "2999-01-01T00:00:00.000Z" })
      const open = stored(projectId, { applyAt: "2020-01-01T00:00:00.000Z" })
      const failed = stored(projectId, { status: "approved", applyAt: "2020-01-01T00:00:00.000Z", failure: "moved on" })
      for (const r of [later, earlier, notDue, open, failed]) yield* repo.insert(r)
      const mine = (owner: string, now: string, leaseUntil: string) =>
        Effect.map(repo.claimDue({ now, owner, leaseUntil, limit: 1000 }), (claimed) => claimed.filter((r) => r.projectId === projectId).map((r) => r.id))
      expect(yield* mine("a", "2026-01-01T00:00:00.000Z", "2026-01-01T00:01:00.000Z")).toEqual([earlier.id, later.id])
      expect(yield* mine("b", "2026-01-01T00:00:30.000Z", "2026-01-01T00:02:00.000Z")).toEqual([])
      expect(yield* mine("b", "2026-01-01T00:01:00.000Z", "2026-01-01T00:02:00.000Z")).toEqual([earlier.id, later.id])
      // Closed again, so that no scheduler of the other suites tries to apply these made-up requests.
      for (const r of [later, earlier, notDue, failed]) expect(yield* repo.replace({ ...r, status: "cancelled", version: 2 }, 1)).toBe(true)
    }))

  it.effect("two applies at once: the request is applied once and the flag's version grows by one", () =>
    Effect.gen(function* () {
      const approver = yield* givenApprover
      const crs = yield* ChangeRequests
      const flags = yield* Flags
      const { projectId, flag } = yield* givenFlag("production")
      const opened = yield* as(OPERATOR, crs.open(projectId, { title: "On", environment: "production", changes: [{ flagKey: "flag", targeting: on }] }))
      expect(opened.changes[0]?.baseVersion).toBe(flag.version)
      yield* as(approver, crs.approve(projectId, opened.id, {}))
      const results = yield* Effect.all([as(OPERATOR, crs.apply(projectId, opened.id)), as(approver, crs.apply(projectId, opened.id))].map(Effect.either), { concurrency: "unbounded" })
      expect(results.filter(Either.isRight)).toHaveLength(1)
      expect(results.filter(Either.isLeft).map((r) => r.left._tag)).toEqual(["ResourceConflict"])
      const after = yield* flags.get(projectId, "flag")
      expect(after.version).toBe(flag.version + 1)
      expect(after.configs.find((c) => c.environmentKey === "production")?.enabled).toBe(true)
      expect((yield* crs.get(projectId, opened.id)).status).toBe("applied")
      // The webhook events, in the order of the writes: the request's own and the flag's, as for any PUT.
      const events = (yield* (yield* EventOutbox).list(projectId)).map((e) => e.event.type)
      expect(events.filter((type) => type !== "flag.created")).toEqual(["change_request.opened", "change_request.approved", "targeting.updated", "change_request.applied"])
    }))

  it.effect("a rejection is delivered as a webhook event, with the rejected request and its reason; nothing of it is applied", () =>
    Effect.gen(function* () {
      const crs = yield* ChangeRequests
      const flags = yield* Flags
      const { projectId, flag } = yield* givenFlag("production")
      const opened = yield* as(OPERATOR, crs.open(projectId, { title: "On", environment: "production", changes: [{ flagKey: "flag", targeting: on }] }))
      yield* as(APPROVER, crs.reject(projectId, opened.id, { comment: "Not before the sale" }))
      const events = (yield* (yield* EventOutbox).list(projectId)).map((e) => e.event).filter((event) => event.type !== "flag.created")
      expect(events.map((event) => event.type)).toEqual(["change_request.opened", "change_request.rejected"])
      expect(events[1]?.data).toMatchObject({
        changeRequest: { id: opened.id, status: "rejected", rejection: { by: { type: "key", keyId: "k-approver" }, comment: "Not before the sale" } }
      })
      expect((yield* flags.get(projectId, "flag")).version).toBe(flag.version)
    }))

  it.effect("a flag that moved on: nothing of the request is applied, it stays approved", () =>
    Effect.gen(function* () {
      const approver = yield* givenApprover
      const crs = yield* ChangeRequests
      const flags = yield* Flags
      const { projectId } = yield* givenFlag("production")
      yield* flags.create(projectId, { key: "second", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
      const opened = yield* as(OPERATOR, crs.open(projectId, {
        title: "Both on",
        environment: "production",
        changes: [{ flagKey: "flag", targeting: on }, { flagKey: "second", targeting: on }]
      }))
      yield* as(approver, crs.approve(projectId, opened.id, {}))
      yield* flags.replaceTargeting(projectId, "second", { environment: "production", ...on, enabled: false, defaultVariationKey: "off" })
      const before = yield* flags.get(projectId, "flag")
      const refused = yield* Effect.either(as(OPERATOR, crs.apply(projectId, opened.id)))
      expect(Either.isLeft(refused) && refused.left.message).toMatch(/^Flag 'second' changed since/)
      expect((yield* flags.get(projectId, "flag")).version).toBe(before.version)
      expect((yield* crs.get(projectId, opened.id)).status).toBe("approved")
    }))
}
