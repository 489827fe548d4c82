import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Either, Layer, Option, TestClock } from "effect"
import { envFrom, eventually, realPause } from "../fixtures/RealTime.js"
import type { WebhookEvent } from "../../src/domain/webhooks/Webhook.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { WebhookRepository } from "../../src/ports/WebhookRepository.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Projects } from "../../src/services/projects/Projects.js"
import * as WebhookDispatcher from "../../src/services/webhooks/WebhookDispatcher.js"
import * as WebhookRetention from "../../src/services/webhooks/WebhookRetention.js"
import { Webhooks } from "../../src/services/webhooks/Webhooks.js"
import { settledDelivery } from "./fixtures/Deliveries.js"
import { webhookEnv } from "./fixtures/Env.js"

/**
 * Retention as the dispatcher runs it: once at start, then every hour (TestClock), with the
 * retention period from FLAGPORT_WEBHOOK_RETENTION_DAYS. What each prune deletes, on every
 * backend, is pinned by the storage contracts (test/contract/*.contract.ts).
 */

const DAY = 86_400_000
const T0 = Date.parse("2026-06-01T00:00:00.000Z")
const iso = (ms: number) => new Date(ms).toISOString()

/** A delivery of `webhookId` (enabled, nothing else pending) that succeeded at `at`. */
const succeededAt = (projectId: string, webhookId: string, at: string) => settledDelivery(projectId, webhookId, at, "succeeded")

/** An event of a project without webhooks (its fan-out creates no delivery). */
const event = (id: string, occurredAt: string) =>
  ({ id, type: "flag.deleted", projectId: "no-hooks", occurredAt, data: { flag: { key: id } } }) as unknown as WebhookEvent

describe("webhook retention in the dispatcher", () => {
  it.effect("prunes at start and then every hour; pending deliveries and undispatched events stay", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      yield* (yield* Projects).create({ id: "p", name: "P" })
      yield* (yield* Environments).create("p", { key: "production", name: "Production" })
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const outbox = yield* EventOutbox
      const live = yield* webhooks.create("p", { url: "http://127.0.0.1:9/live", events: ["flag.created"] })
      const off = yield* webhooks.create("p", { url: "http://127.0.0.1:9/off", events: ["flag.created"] })

      const old = yield* succeededAt("p", live.id, iso(T0 - 31 * DAY)) // past the 30 days at start
      const edge = yield* succeededAt("p", live.id, iso(T0 - 30 * DAY + 10 * 60_000)) // past them 10 min later
      // A year-old delivery still pending (its webhook is disabled, so it waits): never pruned.
      yield* repo.insertDelivery({
        id: "ancient-pending",
        webhookId: off.id,
        projectId: "p",
        eventId: "e-ancient",
        eventType: "flag.created",
        payload: "{}",
        nextAttemptAt: iso(T0 - 365 * DAY),
        redeliveryOf: null,
        createdAt: iso(T0 - 365 * DAY)
      })
      yield* webhooks.patch("p", off.id, { enabled: false })
      yield* outbox.append(event("ev-old", iso(T0 - 40 * DAY)))
      yield* outbox.markDispatched("ev-old", iso(T0 - 40 * DAY))
      // Recorded long ago but never fanned out (as after a long outage): the dispatcher fans it
      // out now, and retention counts from then.
      yield* outbox.append(event("ev-undispatched", iso(T0 - 40 * DAY)))

      const deliveryIds = Effect.map(repo.listDeliveries(live.id), (ds) => ds.map((d) => d.id))
      const eventIds = Effect.map(outbox.list("no-hooks"), (es) => es.map((e) => e.event.id))

      // A long poll interval keeps the delivery loop quiet; only retention matters here.
      yield* Layer.build(WebhookDispatcher.layerWith({ pollInterval: "1 day" }))
      expect(yield* eventually(Effect.map(deliveryIds, (ids) => !ids.includes(old)))).toBe(true)
      expect(yield* eventually(Effect.map(eventIds, (ids) => !ids.includes("ev-old")))).toBe(true)
      expect(yield* deliveryIds).toEqual([edge])
      expect(yield* eventIds).toEqual(["ev-undispatched"])
      expect((yield* outbox.list("no-hooks"))[0]!.dispatchedAt).toBe(iso(T0))

      // No second run before the hour is up...
      yield* TestClock.adjust("59 minutes")
      yield* realPause(100)
      expect(yield* deliveryIds).toEqual([edge])
      // ...and at the hour `edge` has passed the 30 days.
      yield* TestClock.adjust("1 minute")
      expect(yield* eventually(Effect.map(deliveryIds, (ids) => ids.length === 0))).toBe(true)

      // Whatever the age, the pending delivery stays; the event fanned out at T0 is recent.
      const pending = Option.getOrThrow(yield* repo.getDelivery(off.id, "ancient-pending"))
      expect(pending.status).toBe("pending")
      expect(yield* eventIds).toEqual(["ev-undispatched"])
    }).pipe(Effect.provide(webhookEnv("memory")), Effect.scoped))

  it.effect("layerConfig takes the retention from FLAGPORT_WEBHOOK_RETENTION_DAYS", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      yield* (yield* Projects).create({ id: "p", name: "P" })
      const webhooks = yield* Webhooks
      const repo = yield* WebhookRepository
      const hook = yield* webhooks.create("p", { url: "http://127.0.0.1:9/h", events: ["flag.created"] })
      const threeDays = yield* succeededAt("p", hook.id, iso(T0 - 3 * DAY))
      const oneDay = yield* succeededAt("p", hook.id, iso(T0 - 1 * DAY + 60_000))
      yield* Layer.build(
        WebhookDispatcher.layerConfig({ pollInterval: "1 day" }).pipe(
          Layer.provide(Layer.setConfigProvider(envFrom({ FLAGPORT_WEBHOOK_RETENTION_DAYS: "2" })))
        )
      )
      const ids = Effect.map(repo.listDeliveries(hook.id), (ds) => ds.map((d) => d.id))
      expect(yield* eventually(Effect.map(ids, (list) => !list.includes(threeDays)))).toBe(true)
      expect(yield* ids).toEqual([oneDay])
    }).pipe(Effect.provide(webhookEnv("memory")), Effect.scoped))
})

describe("FLAGPORT_WEBHOOK_RETENTION_DAYS", () => {
  const read = (env: Record<string, string>) =>
    WebhookRetention.config.pipe(Effect.withConfigProvider(envFrom(env)), Effect.either)

  it.effect("defaults to 30 days and takes any whole number of days from 1", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toEqual(Either.right({ retentionDays: 30 }))
      expect(yield* read({ FLAGPORT_WEBHOOK_RETENTION_DAYS: "1" })).toEqual(Either.right({ retentionDays: 1 }))
      expect(yield* read({ FLAGPORT_WEBHOOK_RETENTION_DAYS: "365" })).toEqual(Either.right({ retentionDays: 365 }))
    }))

  it.effect("0, negative, fractional or non-numeric values are a configuration error naming the variable", () =>
    Effect.gen(function* () {
      for (const value of ["0", "-1", "1.5", "thirty", "30d", ""]) {
        const result = yield* read({ FLAGPORT_WEBHOOK_RETENTION_DAYS: value })
        expect(Either.isLeft(result), value).toBe(true)
        if (Either.isLeft(result)) expect(String(result.left), value).toContain("FLAGPORT_WEBHOOK_RETENTION_DAYS")
      }
      const zero = yield* read({ FLAGPORT_WEBHOOK_RETENTION_DAYS: "0" })
      expect(Either.isLeft(zero) && String(zero.left)).toBe(
        '(Invalid data at FLAGPORT_WEBHOOK_RETENTION_DAYS: "Expected a whole number of days, at least 1")'
      )
    }))

  it.effect("a bad value stops the dispatcher layer from starting", () =>
    Effect.gen(function* () {
      const error = yield* Layer.build(
        WebhookDispatcher.layerConfig().pipe(
          Layer.provide(Layer.setConfigProvider(envFrom({ FLAGPORT_WEBHOOK_RETENTION_DAYS: "0" })))
        )
      ).pipe(Effect.flip)
      expect(String(error)).toContain("FLAGPORT_WEBHOOK_RETENTION_DAYS")
    }).pipe(Effect.provide(webhookEnv("memory")), Effect.scoped))
})

describe("WebhookRetention.prune guards", () => {
  it.effect("an infinite retention deletes nothing; a batch size below 1 still finishes, one row per batch", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      yield* (yield* Projects).create({ id: "p", name: "P" })
      const hook = yield* (yield* Webhooks).create("p", { url: "http://127.0.0.1:9/h", events: ["flag.created"] })
      const repo = yield* WebhookRepository
      yield* succeededAt("p", hook.id, iso(T0 - 90 * DAY))
      yield* succeededAt("p", hook.id, iso(T0 - 80 * DAY))
      expect(yield* WebhookRetention.prune(Duration.infinity, 1000)).toEqual({ deliveries: 0, events: 0 })
      expect(yield* repo.listDeliveries(hook.id)).toHaveLength(2)
      expect(yield* WebhookRetention.prune(Duration.days(30), 0)).toEqual({ deliveries: 2, events: 0 })
      expect(yield* repo.listDeliveries(hook.id)).toHaveLength(0)
    }).pipe(Effect.provide(webhookEnv("memory")), Effect.scoped))
})
