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
import { at, MINUTE, newProject, SOON } from "./WebhookContractFixtures.js"

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

}
