import { expect, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import type { IdGenerator } from "../../src/ports/IdGenerator.js"
import type { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import { TraceContext } from "../../src/ports/TraceContext.js"
import { Transactor } from "../../src/ports/Transactor.js"
import { WebhookRepository } from "../../src/ports/WebhookRepository.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import { fanOut } from "../../src/services/webhooks/WebhookDispatcher.js"
import { Webhooks } from "../../src/services/webhooks/Webhooks.js"
import { claim, failedAttempt, mine, settledDelivery } from "../webhooks/fixtures/Deliveries.js"
import { booleanFlag } from "../webhooks/fixtures/Flags.js"

/**
 * The WebhookRepository contract (with the Webhooks service and the dispatcher's fan-out on top),
 * run from All.ts (with every other storage contract) against memory, SQLite and PostgreSQL.
 *
 * Tests share one database per backend, so each works in its own project and only looks at its
 * own webhooks. Time is passed to `claimDue` explicitly (`at(ms)`), so no test waits.
 */
export type WebhookContractEnv =
  | Projects
  | Environments
  | Flags
  | EventOutbox
  | Transactor
  | IdGenerator
  | ProjectRepository
  | WebhookRepository
  | Webhooks

export type WebhookIt = Vitest.MethodsNonLive<WebhookContractEnv, true>

const newProject = Effect.gen(function* () {
  const id = `wh-${Math.random().toString(36).slice(2, 12)}`
  yield* (yield* Projects).create({ id, name: id })
  yield* (yield* Environments).create(id, { key: "production", name: "Production" })
  return id
})

/** An ISO time `ms` from the real now (deliveries are due at their creation time). */
const at = (ms: number) => new Date(Date.now() + ms).toISOString()
const SOON = 1_000
const MINUTE = 60_000

/** Times long before any other test's (which use the real now), so pruning them touches no one else. */
const ANCIENT = Date.parse("2001-01-01T00:00:00.000Z")
const DAY = 86_400_000
const ancient = (ms: number) => new Date(ANCIENT + ms).toISOString()

/** Prunes everything finished before `before`, batch after batch; returns the total. */
const pruneAll = (before: string) =>
  Effect.gen(function* () {
    const repo = yield* WebhookRepository
    let total = 0
    for (;;) {
      const n = yield* repo.pruneFinished(before, 1000)
      total += n
      if (n < 1000) return total
    }
  })

/**
 * A delivery of `webhookId` (which must have no other pending delivery) created at `createdAt`,
 * attempted at `createdAt` and left `status` (pending ones keep a next attempt time), as if sent then.
 */

export const webhookContract = (it: WebhookIt) => {
  it.effect("create, list, get, patch and delete; the secret never appears in a record", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const projectId = yield* newProject
      const a = yield* webhooks.create(projectId, {
        url: "https://example.com/a",
        events: ["flag.created", "flag.updated", "flag.created"],
        secret: "a-secret-value"
      })
      expect(a).toEqual({
        id: a.id,
        projectId,
        url: "https://example.com/a",
        events: ["flag.created", "flag.updated"],
        enabled: true,
        hasSecret: true,
        createdAt: a.createdAt,
        updatedAt: a.createdAt
      })
      expect(JSON.stringify(a)).not.toContain("a-secret-value")
      const b = yield* webhooks.create(projectId, { url: "http://127.0.0.1:9/b", events: ["flag.deleted"], enabled: false })
      expect(b.hasSecret).toBe(false)
      expect(b.enabled).toBe(false)
      expect((yield* webhooks.list(projectId)).map((w) => w.id)).toEqual([a.id, b.id])
      expect(yield* webhooks.get(projectId, b.id)).toEqual(b)

      const patched = yield* webhooks.patch(projectId, b.id, {
        url: "https://example.org/b2",
        events: ["targeting.updated"],
        enabled: true
      })
      expect(patched).toMatchObject({ url: "https://example.org/b2", events: ["targeting.updated"], enabled: true })
      expect(yield* webhooks.get(projectId, b.id)).toEqual(patched)

      yield* webhooks.remove(projectId, a.id)
      expect((yield* webhooks.list(projectId)).map((w) => w.id)).toEqual([b.id])
      expect((yield* Effect.flip(webhooks.get(projectId, a.id)))._tag).toBe("ResourceNotFound")
      expect((yield* Effect.flip(webhooks.remove(projectId, a.id)))._tag).toBe("ResourceNotFound")
    }))

  it.effect("404 for unknown projects and for webhooks of another project", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const p1 = yield* newProject
      const p2 = yield* newProject
      const hook = yield* webhooks.create(p1, { url: "https://example.com/", events: ["flag.created"] })
      const tags = yield* Effect.all([
        Effect.flip(webhooks.list("no-such-project")),
        Effect.flip(webhooks.create("no-such-project", { url: "https://example.com/", events: ["flag.created"] })),
        Effect.flip(webhooks.get(p2, hook.id)),
        Effect.flip(webhooks.patch(p2, hook.id, { enabled: false })),
        Effect.flip(webhooks.remove(p2, hook.id)),
        Effect.flip(webhooks.deliveries(p2, hook.id)),
        Effect.flip(webhooks.redeliver(p1, hook.id, "no-such-delivery"))
      ])
      expect(tags.map((e) => e._tag)).toEqual(Array(7).fill("ResourceNotFound"))
      expect((yield* webhooks.get(p1, hook.id)).enabled).toBe(true)
    }))

  it.effect("rejects bad input with every problem and its path", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const projectId = yield* newProject
      const error = yield* Effect.flip(
        webhooks.create(projectId, {
          url: "ftp://example.com/",
          events: ["flag.exploded" as "flag.created"],
          secret: "short"
        })
      )
      expect(error._tag).toBe("InvalidRequest")
      const details = error._tag === "InvalidRequest" ? error.details.map((d) => d.path) : []
      expect(details).toEqual(["url", "events[0]", "secret"])
      const none = yield* Effect.flip(webhooks.create(projectId, { url: "https://e.com/", events: [] }))
      expect(none._tag === "InvalidRequest" && none.details.map((d) => d.path)).toEqual(["events"])
      const long = yield* Effect.flip(
        webhooks.create(projectId, { url: "https://e.com/", events: ["flag.created"], secret: "x".repeat(129) })
      )
      expect(long._tag).toBe("InvalidRequest")
      const hook = yield* webhooks.create(projectId, { url: "https://e.com/", events: ["flag.created"], secret: "x".repeat(128) })
      const patch = yield* Effect.flip(webhooks.patch(projectId, hook.id, { url: "not a url" }))
      expect(patch._tag).toBe("InvalidRequest")
      expect(yield* webhooks.list(projectId)).toHaveLength(1)
    }))

  it.effect("a new secret rotates: the old one is kept 24 h and the record says so; null stops signing", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const projectId = yield* newProject
      const hook = yield* webhooks.create(projectId, { url: "https://e.com/", events: ["flag.created"], secret: "first-secret" })
      expect(hook.previousSecretExpiresAt).toBeUndefined()
      const same = yield* webhooks.patch(projectId, hook.id, { secret: "first-secret" })
      expect(same.previousSecretExpiresAt).toBeUndefined()
      const rotated = yield* webhooks.patch(projectId, hook.id, { secret: "second-secret" })
      expect(rotated.hasSecret).toBe(true)
      expect(Date.parse(rotated.previousSecretExpiresAt!) - Date.parse(rotated.updatedAt)).toBe(24 * 3600_000)
      expect(JSON.stringify(rotated)).not.toMatch(/first-secret|second-secret/)
      const stored = Option.getOrThrow(yield* repo.get(projectId, hook.id))
      expect(stored).toMatchObject({
        secret: "second-secret",
        previousSecret: "first-secret",
        previousSecretExpiresAt: rotated.previousSecretExpiresAt
      })
      expect((yield* webhooks.get(projectId, hook.id)).previousSecretExpiresAt).toBe(rotated.previousSecretExpiresAt)
      const cleared = yield* webhooks.patch(projectId, hook.id, { secret: null })
      expect(cleared.hasSecret).toBe(false)
      expect(cleared.previousSecretExpiresAt).toBeUndefined()
      expect(Option.getOrThrow(yield* repo.get(projectId, hook.id))).toMatchObject({
        secret: null,
        previousSecret: null,
        previousSecretExpiresAt: null
      })
    }))

  it.effect("fan-out makes one delivery per event per enabled subscribed webhook, in order, once", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const outbox = yield* EventOutbox
      const flags = yield* Flags
      const projectId = yield* newProject
      const all = yield* webhooks.create(projectId, {
        url: "https://e.com/all",
        events: ["flag.created", "flag.updated", "flag.deleted", "targeting.updated"]
      })
      const createdOnly = yield* webhooks.create(projectId, { url: "https://e.com/created", events: ["flag.created"] })
      const disabled = yield* webhooks.create(projectId, { url: "https://e.com/off", events: ["flag.created"], enabled: false })
      yield* flags.create(projectId, booleanFlag("one"))
      yield* flags.patch(projectId, "one", { name: "One" })
      yield* flags.create(projectId, booleanFlag("two"))
      yield* flags.remove(projectId, "one")
      const events = yield* outbox.list(projectId)
      expect(events).toHaveLength(4)

      yield* fanOut(1000)
      expect((yield* outbox.list(projectId)).every((e) => e.dispatchedAt !== null)).toBe(true)
      const toAll = yield* repo.listDeliveries(all.id)
      expect(toAll.map((d) => d.eventId)).toEqual(events.map((e) => e.event.id))
      expect(toAll.map((d) => d.eventType)).toEqual(["flag.created", "flag.updated", "flag.created", "flag.deleted"])
      expect(toAll.every((d) => d.status === "pending" && d.attempts.length === 0 && d.redeliveryOf === null)).toBe(true)
      expect(JSON.parse(toAll[0]!.payload)).toEqual(events[0]!.event)
      const toCreated = yield* repo.listDeliveries(createdOnly.id)
      expect(toCreated.map((d) => d.eventId)).toEqual([events[0]!.event.id, events[2]!.event.id])
      expect(yield* repo.listDeliveries(disabled.id)).toEqual([])

      yield* fanOut(1000)
      expect(yield* repo.listDeliveries(all.id)).toHaveLength(4)
      expect(yield* webhooks.deliveries(projectId, all.id)).toHaveLength(4)
    }))

  it.effect("a fan-out that fails is rolled back: no deliveries, events still pending", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const outbox = yield* EventOutbox
      const tx = yield* Transactor
      const projectId = yield* newProject
      const hook = yield* webhooks.create(projectId, { url: "https://e.com/", events: ["flag.created"] })
      yield* (yield* Flags).create(projectId, booleanFlag("f"))
      const error = yield* Effect.flip(tx.withTransaction(Effect.zipRight(fanOut(1000), Effect.fail("abort" as const))))
      expect(error).toBe("abort")
      expect(yield* repo.listDeliveries(hook.id)).toEqual([])
      expect((yield* outbox.list(projectId)).map((e) => e.dispatchedAt)).toEqual([null])
      yield* fanOut(1000)
      expect(yield* repo.listDeliveries(hook.id)).toHaveLength(1)
    }))

  it.effect("a write's trace (TraceContext) is kept with its outbox event, copied to its deliveries and claimed with them; none without", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const outbox = yield* EventOutbox
      const flags = yield* Flags
      const projectId = yield* newProject
      const hook = yield* webhooks.create(projectId, { url: "https://e.com/traced", events: ["flag.created"] })
      const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
      yield* flags.create(projectId, booleanFlag("traced")).pipe(
        Effect.provideService(TraceContext, TraceContext.of({ current: Effect.succeed(traceparent) }))
      )
      yield* flags.create(projectId, booleanFlag("plain"))
      expect((yield* outbox.list(projectId)).map((e) => e.traceparent)).toEqual([traceparent, null])
      expect((yield* outbox.pending(100_000)).filter((e) => e.event.projectId === projectId).map((e) => e.traceparent)).toEqual([traceparent, null])
      yield* fanOut(1000)
      const first = mine(yield* claim("one"), [hook.id])
      expect(first.map((c) => c.traceparent)).toEqual([traceparent])
    }))

  it.effect("claims at most `limit`, of one project when asked; dueProjects names the projects with due heads, longest waiting first", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const flags = yield* Flags
      const first = yield* newProject
      const second = yield* newProject
      const hooks: Array<string> = []
      for (let i = 0; i < 5; i++) hooks.push((yield* webhooks.create(first, { url: `https://e.com/${i}`, events: ["flag.created"] })).id)
      hooks.push((yield* webhooks.create(second, { url: "https://e.com/other", events: ["flag.created"] })).id)
      yield* flags.create(first, booleanFlag("f1"))
      yield* flags.create(second, booleanFlag("f2"))
      yield* fanOut(1000)
      const now = at(SOON)
      const due = (yield* repo.dueProjects({ now, limit: 1000 })).filter((p) => p === first || p === second)
      expect(due).toEqual([first, second])
      const leaseUntil = at(MINUTE)
      const two = yield* repo.claimDue({ now, owner: "one", leaseUntil, limit: 2, projectId: first })
      expect(two.map((c) => c.projectId)).toEqual([first, first])
      const other = yield* repo.claimDue({ now, owner: "one", leaseUntil, limit: 5, projectId: second })
      expect(other.map((c) => c.projectId)).toEqual([second])
      expect((yield* repo.dueProjects({ now, limit: 1000 })).filter((p) => p === first || p === second)).toEqual([first])
      expect(mine(yield* claim("two"), hooks)).toHaveLength(3)
      expect((yield* repo.dueProjects({ now, limit: 1000 })).filter((p) => p === first || p === second)).toEqual([])
    }))

  it.effect("claims only the oldest pending delivery of each webhook, leased against other owners", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const flags = yield* Flags
      const projectId = yield* newProject
      const a = yield* webhooks.create(projectId, { url: "https://e.com/a", events: ["flag.created"], secret: "secret-aaa" })
      const b = yield* webhooks.create(projectId, { url: "https://e.com/b", events: ["flag.updated"] })
      yield* flags.create(projectId, booleanFlag("f1"))
      yield* flags.create(projectId, booleanFlag("f2"))
      yield* flags.patch(projectId, "f1", { name: "F1" })
      yield* fanOut(1000)
      const [a1, a2] = yield* repo.listDeliveries(a.id)
      const [b1] = yield* repo.listDeliveries(b.id)

      expect(mine(yield* claim("early", at(-MINUTE)), [a.id, b.id])).toEqual([]) // not yet due
      const first = mine(yield* claim("one"), [a.id, b.id])
      expect(first.map((c) => c.deliveryId)).toEqual([a1!.id, b1!.id])
      expect(first[0]).toEqual({
        deliveryId: a1!.id,
        webhookId: a.id,
        projectId,
        eventId: a1!.eventId,
        payload: a1!.payload,
        attemptsMade: 0,
        url: "https://e.com/a",
        secret: "secret-aaa",
        previousSecret: null,
        previousSecretExpiresAt: null,
        traceparent: null
      })
      expect(mine(yield* claim("two"), [a.id, b.id])).toEqual([]) // leased, and a2 waits behind a1

      // The lease of "one" expires: "two" may take a1 over; "one" can no longer settle it.
      const later = at(2 * MINUTE)
      expect(mine(yield* claim("two", later), [a.id]).map((c) => c.deliveryId)).toEqual([a1!.id])
      expect(
        yield* repo.recordAttempt({ deliveryId: a1!.id, owner: "one", status: "succeeded", attempt: failedAttempt(later, null) })
      ).toBe(false)
      expect(
        yield* repo.recordAttempt({ deliveryId: a1!.id, owner: "two", status: "succeeded", attempt: { ...failedAttempt(later, null), statusCode: 204, error: null } })
      ).toBe(true)
      const settled = Option.getOrThrow(yield* repo.getDelivery(a.id, a1!.id))
      expect(settled.status).toBe("succeeded")
      expect(settled.nextAttemptAt).toBeNull()
      expect(settled.attempts.map((x) => [x.statusCode, x.error])).toEqual([
        [500, "HTTP 500"],
        [204, null]
      ])
      // a1 is settled, so a2 is the head now.
      expect(mine(yield* claim("three", later), [a.id]).map((c) => c.deliveryId)).toEqual([a2!.id])
    }))

  it.effect("a failed attempt with a next time keeps the delivery pending until then, then failed is final", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const projectId = yield* newProject
      const hook = yield* webhooks.create(projectId, { url: "https://e.com/r", events: ["flag.created"] })
      yield* (yield* Flags).create(projectId, booleanFlag("f1"))
      yield* (yield* Flags).create(projectId, booleanFlag("f2"))
      yield* fanOut(1000)
      const [d1, d2] = yield* repo.listDeliveries(hook.id)
      const t0 = at(SOON)
      const retryAt = at(SOON + 5_000)
      expect(mine(yield* claim("w", t0), [hook.id]).map((c) => c.deliveryId)).toEqual([d1!.id])
      expect(yield* repo.recordAttempt({ deliveryId: d1!.id, owner: "w", status: "pending", attempt: failedAttempt(t0, retryAt) })).toBe(true)
      const waiting = Option.getOrThrow(yield* repo.getDelivery(hook.id, d1!.id))
      expect(waiting).toMatchObject({ status: "pending", nextAttemptAt: retryAt })
      expect(waiting.attempts).toEqual([failedAttempt(t0, retryAt)])
      // Not due yet, and d2 may not overtake it.
      expect(mine(yield* claim("w", at(SOON + 4_000)), [hook.id])).toEqual([])
      const retry = mine(yield* claim("w", retryAt), [hook.id])
      expect(retry.map((c) => [c.deliveryId, c.attemptsMade])).toEqual([[d1!.id, 1]])
      yield* repo.recordAttempt({ deliveryId: d1!.id, owner: "w", status: "failed", attempt: failedAttempt(retryAt, null) })
      const failed = Option.getOrThrow(yield* repo.getDelivery(hook.id, d1!.id))
      expect(failed.status).toBe("failed")
      expect(failed.nextAttemptAt).toBeNull()
      expect(failed.attempts).toHaveLength(2)
      expect(mine(yield* claim("w", at(10 * MINUTE)), [hook.id]).map((c) => c.deliveryId)).toEqual([d2!.id])
    }))

  it.effect("a disabled webhook gets no deliveries and its queued ones are held until it is enabled", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const projectId = yield* newProject
      const hook = yield* webhooks.create(projectId, { url: "https://e.com/d", events: ["flag.created"] })
      yield* (yield* Flags).create(projectId, booleanFlag("queued"))
      yield* fanOut(1000)
      yield* webhooks.patch(projectId, hook.id, { enabled: false })
      yield* (yield* Flags).create(projectId, booleanFlag("while-disabled"))
      yield* fanOut(1000)
      expect((yield* repo.listDeliveries(hook.id)).map((d) => JSON.parse(d.payload).data.flag.key)).toEqual(["queued"])
      expect(mine(yield* claim("w"), [hook.id])).toEqual([])
      yield* webhooks.patch(projectId, hook.id, { enabled: true })
      expect(mine(yield* claim("w"), [hook.id])).toHaveLength(1)
    }))

  it.effect("redeliver re-sends a settled delivery as a new one; 409 while pending or disabled", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const projectId = yield* newProject
      const hook = yield* webhooks.create(projectId, { url: "https://e.com/x", events: ["flag.created"] })
      yield* (yield* Flags).create(projectId, booleanFlag("f"))
      yield* fanOut(1000)
      const [d] = yield* webhooks.deliveries(projectId, hook.id)
      expect((yield* Effect.flip(webhooks.redeliver(projectId, hook.id, d!.id)))._tag).toBe("ResourceConflict")
      const t = at(SOON)
      yield* claim("w", t)
      yield* repo.recordAttempt({ deliveryId: d!.id, owner: "w", status: "failed", attempt: failedAttempt(t, null) })
      yield* webhooks.patch(projectId, hook.id, { enabled: false })
      expect((yield* Effect.flip(webhooks.redeliver(projectId, hook.id, d!.id)))._tag).toBe("ResourceConflict")
      yield* webhooks.patch(projectId, hook.id, { enabled: true })
      const again = yield* webhooks.redeliver(projectId, hook.id, d!.id)
      expect(again).toMatchObject({
        webhookId: hook.id,
        eventId: d!.eventId,
        eventType: "flag.created",
        status: "pending",
        redeliveryOf: d!.id,
        attempts: []
      })
      expect(again.id).not.toBe(d!.id)
      const log = yield* webhooks.deliveries(projectId, hook.id)
      expect(log.map((x) => [x.id, x.status])).toEqual([
        [d!.id, "failed"],
        [again.id, "pending"]
      ])
      const claimed = mine(yield* claim("w", at(2 * SOON)), [hook.id])
      expect(claimed.map((c) => [c.deliveryId, c.eventId, c.attemptsMade])).toEqual([[again.id, d!.eventId, 0]])
      expect(claimed[0]!.payload).toBe(Option.getOrThrow(yield* repo.getDelivery(hook.id, d!.id)).payload)
    }))

  it.effect("deleting a webhook deletes its delivery log", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const projectId = yield* newProject
      const hook = yield* webhooks.create(projectId, { url: "https://e.com/z", events: ["flag.created"] })
      yield* (yield* Flags).create(projectId, booleanFlag("f"))
      yield* fanOut(1000)
      const [d] = yield* repo.listDeliveries(hook.id)
      const t = at(SOON)
      yield* claim("w", t)
      yield* repo.recordAttempt({ deliveryId: d!.id, owner: "w", status: "pending", attempt: failedAttempt(t, at(MINUTE)) })
      yield* webhooks.remove(projectId, hook.id)
      expect(yield* repo.listDeliveries(hook.id)).toEqual([])
      expect(yield* repo.getDelivery(hook.id, d!.id)).toEqual(Option.none())
    }))

  it.effect("retention: finished deliveries older than the cut-off go with their attempts; recent ones stay", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const projectId = yield* newProject
      const hook = yield* webhooks.create(projectId, { url: "https://e.com/ret", events: ["flag.created"] })
      const oldOk = yield* settledDelivery(projectId, hook.id, ancient(1 * DAY), "succeeded")
      const oldFailed = yield* settledDelivery(projectId, hook.id, ancient(2 * DAY), "failed")
      const recentOk = yield* settledDelivery(projectId, hook.id, ancient(40 * DAY), "succeeded")
      const recentFailed = yield* settledDelivery(projectId, hook.id, ancient(41 * DAY), "failed")
      expect((yield* repo.listDeliveries(hook.id)).map((d) => d.attempts.length)).toEqual([1, 1, 1, 1])

      // Cut-off at day 10: both day-1/day-2 deliveries go, the day-40/41 ones stay untouched.
      expect(yield* pruneAll(ancient(10 * DAY))).toBe(2)
      const left = yield* repo.listDeliveries(hook.id)
      expect(left.map((d) => [d.id, d.status, d.attempts.length])).toEqual([
        [recentOk, "succeeded", 1],
        [recentFailed, "failed", 1]
      ])
      expect(yield* repo.getDelivery(hook.id, oldOk)).toEqual(Option.none())
      expect(yield* repo.getDelivery(hook.id, oldFailed)).toEqual(Option.none())
      // The cut-off is exclusive: a delivery finished exactly at it stays.
      expect(yield* pruneAll(ancient(40 * DAY))).toBe(0)
      expect(yield* pruneAll(ancient(40 * DAY + 1))).toBe(1)
      expect((yield* repo.listDeliveries(hook.id)).map((d) => d.id)).toEqual([recentFailed])
    }))

  it.effect("retention: pending and leased deliveries are never pruned, however old", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const projectId = yield* newProject
      const retrying = yield* webhooks.create(projectId, { url: "https://e.com/p1", events: ["flag.created"] })
      const leased = yield* webhooks.create(projectId, { url: "https://e.com/p2", events: ["flag.created"] })
      const waiting = yield* webhooks.create(projectId, { url: "https://e.com/p3", events: ["flag.created"] })
      const done = yield* settledDelivery(projectId, retrying.id, ancient(0), "succeeded")
      // A pending delivery with a failed attempt behind it, one leased (and the lease long expired)
      // and one never attempted, all years old.
      const retryingId = yield* settledDelivery(projectId, retrying.id, ancient(1 * DAY), "leased")
      const t = ancient(1 * DAY)
      yield* repo.recordAttempt({ deliveryId: retryingId, owner: `owner-${retryingId}`, status: "pending", attempt: failedAttempt(t, ancient(2 * DAY)) })
      const leasedId = yield* settledDelivery(projectId, leased.id, ancient(1 * DAY), "leased")
      const waitingId = yield* settledDelivery(projectId, waiting.id, ancient(1 * DAY), "pending")

      // A cut-off well after all of them (but long before any other test's rows).
      expect(yield* pruneAll(ancient(10 * DAY))).toBeGreaterThanOrEqual(1)
      expect(yield* repo.getDelivery(retrying.id, done)).toEqual(Option.none())
      const kept = [
        Option.getOrThrow(yield* repo.getDelivery(retrying.id, retryingId)),
        Option.getOrThrow(yield* repo.getDelivery(leased.id, leasedId)),
        Option.getOrThrow(yield* repo.getDelivery(waiting.id, waitingId))
      ]
      expect(kept.map((d) => [d.status, d.attempts.length])).toEqual([
        ["pending", 1],
        ["pending", 0],
        ["pending", 0]
      ])
    }))

  it.effect("retention: at most `limit` deliveries per call, oldest first", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const projectId = yield* newProject
      const hook = yield* webhooks.create(projectId, { url: "https://e.com/lim", events: ["flag.created"] })
      const cutoff = ancient(1000 * DAY)
      yield* pruneAll(cutoff) // whatever finished before the cut-off in this shared database
      const ids: Array<string> = []
      for (let i = 0; i < 5; i++) ids.push(yield* settledDelivery(projectId, hook.id, ancient(900 * DAY + i), i % 2 === 0 ? "succeeded" : "failed"))
      expect(yield* repo.pruneFinished(cutoff, 2)).toBe(2)
      expect((yield* repo.listDeliveries(hook.id)).map((d) => d.id)).toEqual(ids.slice(2))
      expect(yield* repo.pruneFinished(cutoff, 2)).toBe(2)
      expect(yield* repo.pruneFinished(cutoff, 2)).toBe(1)
      expect(yield* repo.pruneFinished(cutoff, 2)).toBe(0)
      expect(yield* repo.listDeliveries(hook.id)).toEqual([])
    }))

  it.effect("retention: oldest first means by finish time, not by creation", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const projectId = yield* newProject
      const hook = yield* webhooks.create(projectId, { url: "https://e.com/order", events: ["flag.created"] })
      const cutoff = ancient(1000 * DAY)
      yield* pruneAll(cutoff)
      // Created in this order, finished at +2 ms, +0 ms and +1 ms.
      const [late, early, middle] = [
        yield* settledDelivery(projectId, hook.id, ancient(800 * DAY + 2), "succeeded"),
        yield* settledDelivery(projectId, hook.id, ancient(800 * DAY), "failed"),
        yield* settledDelivery(projectId, hook.id, ancient(800 * DAY + 1), "succeeded")
      ]
      const left = () => Effect.map(repo.listDeliveries(hook.id), (ds) => ds.map((d) => d.id))
      expect(yield* repo.pruneFinished(cutoff, 1)).toBe(1)
      expect(yield* left()).toEqual([late, middle])
      expect(yield* repo.pruneFinished(cutoff, 1)).toBe(1)
      expect(yield* left()).toEqual([late])
      expect(early).not.toBe(middle)
    }))

  it.effect("concurrent claimers never hold the same delivery", () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const projectId = yield* newProject
      const hooks = yield* Effect.forEach(Array.from({ length: 12 }, (_, i) => i), (i) =>
        webhooks.create(projectId, { url: `https://e.com/c${i}`, events: ["flag.created"] })
      )
      yield* (yield* Flags).create(projectId, booleanFlag("f1"))
      yield* (yield* Flags).create(projectId, booleanFlag("f2"))
      yield* fanOut(1000)
      const ids = hooks.map((h) => h.id)
      const rounds = yield* Effect.forEach(
        Array.from({ length: 8 }, (_, i) => `owner-${i}`),
        (owner) => Effect.map(claim(owner), (c) => mine(c, ids)),
        { concurrency: "unbounded" }
      )
      const claimed = rounds.flat().map((c) => c.deliveryId)
      expect(claimed).toHaveLength(12) // every head once; the second deliveries wait behind them
      expect(new Set(claimed).size).toBe(12)
    }))
}
