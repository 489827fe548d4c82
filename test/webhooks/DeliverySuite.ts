import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer, TestClock } from "effect"
import { randomBytes } from "node:crypto"
import { Webhook as StandardWebhook } from "standardwebhooks"
import { RETRY_DELAYS_MS } from "../../src/domain/webhooks/RetrySchedule.js"
import { toStandardSecret } from "../../src/domain/webhooks/WebhookSigning.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import * as WebhookDispatcher from "../../src/services/webhooks/WebhookDispatcher.js"
import { Webhooks } from "../../src/services/webhooks/Webhooks.js"
import type { Backend } from "../fixtures/databases.js"
import { webhookEnv } from "./fixtures/Env.js"
import { booleanFlag } from "./fixtures/Flags.js"
import { type Received, receiver } from "./fixtures/Receiver.js"
import { stored } from "../fixtures/StoredFlag.js"

/**
 * End to end over memory storage, the real HTTP transport and a real receiver on 127.0.0.1,
 * with time driven by TestClock (set to the real now first: receivers check the timestamp).
 */

const OWNER = "test-dispatcher"
const tick = WebhookDispatcher.tick(OWNER)

const setup = Effect.gen(function* () {
  yield* TestClock.setTime(Date.now())
  const projectId = "p1"
  yield* (yield* Projects).create({ id: projectId, name: "P1" })
  yield* (yield* Environments).create(projectId, { key: "production", name: "Production" })
  return { projectId, flags: yield* Flags, webhooks: yield* Webhooks }
})

/** The `v1,...` signatures of a received request. */
const signatures = (r: Received) => String(r.headers["webhook-signature"] ?? "").split(" ").filter((s) => s !== "")

/** True when one of the request's signatures is the library's own signature with `secret` (no clock check). */
const signedWith = (secret: string, r: Received) =>
  signatures(r).includes(
    new StandardWebhook(toStandardSecret(secret)).sign(
      String(r.headers["webhook-id"]),
      new Date(Number(r.headers["webhook-timestamp"]) * 1000),
      r.body
    )
  )

const ids = (received: ReadonlyArray<Received>) => received.map((r) => String(r.headers["webhook-id"]))

/** The end-to-end delivery tests on one backend (run by Delivery.<backend>.test.ts). */
export const deliverySuite = (backend: Backend) => describe(`webhook delivery (${backend})`, () => {
  it.effect("POSTs a Standard Webhooks request that the official library verifies (plain secret)", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 200)
      const { flags, projectId, webhooks } = yield* setup
      const secret = "whsec-like but plain: ü🔑"
      const hook = yield* webhooks.create(projectId, { url: r.url, events: ["flag.created"], secret })
      const created = yield* flags.create(projectId, booleanFlag("new-checkout"))
      const [event] = yield* (yield* EventOutbox).list(projectId)

      expect(yield* tick).toEqual({ fannedOut: 1, sent: 1 })
      expect(r.received).toHaveLength(1)
      const got = r.received[0]!
      expect(got.method).toBe("POST")
      expect(got.headers["content-type"]).toBe("application/json")
      expect(got.headers["webhook-id"]).toBe(event!.event.id)
      expect(Number(got.headers["webhook-timestamp"])).toBe(Math.floor((yield* Clock.currentTimeMillis) / 1000))
      // The official library, fed the secret exactly as docs/guide/webhooks.md shows, accepts it.
      const receiverSide = new StandardWebhook("whsec_" + Buffer.from(secret, "utf8").toString("base64"))
      const verified = receiverSide.verify(got.body, got.headers as Record<string, string>)
      expect(verified).toEqual({
        id: event!.event.id,
        type: "flag.created",
        projectId,
        occurredAt: created.createdAt,
        data: { flag: stored(created) }
      })
      expect(() => new StandardWebhook(toStandardSecret("another secret")).verify(got.body, got.headers as Record<string, string>)).toThrow()

      const [delivery] = yield* webhooks.deliveries(projectId, hook.id)
      expect(delivery).toMatchObject({ eventId: event!.event.id, eventType: "flag.created", status: "succeeded", nextAttemptAt: null })
      expect(delivery!.attempts).toHaveLength(1)
      expect(delivery!.attempts[0]).toMatchObject({ statusCode: 200, error: null, nextAttemptAt: null })
      expect(yield* tick).toEqual({ fannedOut: 0, sent: 0 })
    }).pipe(Effect.provide(webhookEnv(backend)), Effect.scoped))

  it.effect("a whsec_ secret signs with its decoded bytes: the library verifies it given the secret as is", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 200)
      const { flags, projectId, webhooks } = yield* setup
      const secret = "whsec_" + randomBytes(32).toString("base64") // what Standard Webhooks tools generate
      yield* webhooks.create(projectId, { url: r.url, events: ["flag.created"], secret })
      const created = yield* flags.create(projectId, booleanFlag("standard"))
      yield* tick
      const got = r.received[0]!
      // Exactly as the library's README shows: new Webhook(secret).verify(payload, headers).
      const wh = new StandardWebhook(secret)
      expect(wh.verify(got.body, got.headers as Record<string, string>)).toMatchObject({ type: "flag.created", data: { flag: stored(created) } })
      // Not signed with the text of the secret (the plain-secret reading).
      const plainReading = new StandardWebhook("whsec_" + Buffer.from(secret, "utf8").toString("base64"))
      expect(() => plainReading.verify(got.body, got.headers as Record<string, string>)).toThrow()
    }).pipe(Effect.provide(webhookEnv(backend)), Effect.scoped))

  it.effect("a webhook without a secret gets no signature header", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 204)
      const { flags, projectId, webhooks } = yield* setup
      yield* webhooks.create(projectId, { url: r.url, events: ["flag.created"] })
      yield* flags.create(projectId, booleanFlag("f"))
      yield* tick
      expect(r.received).toHaveLength(1)
      expect(r.received[0]!.headers["webhook-signature"]).toBeUndefined()
    }).pipe(Effect.provide(webhookEnv(backend)), Effect.scoped))

  it.effect("each event type reaches only subscribed, enabled webhooks; a disabled webhook gets nothing", () =>
    Effect.gen(function* () {
      const on = yield* receiver(() => 200)
      const off = yield* receiver(() => 200)
      const { flags, projectId, webhooks } = yield* setup
      yield* webhooks.create(projectId, { url: on.url, events: ["flag.updated", "targeting.updated", "flag.deleted"] })
      const disabled = yield* webhooks.create(projectId, {
        url: off.url,
        events: ["flag.created", "flag.updated", "flag.deleted", "targeting.updated"],
        enabled: false
      })
      yield* flags.create(projectId, booleanFlag("f"))
      yield* flags.patch(projectId, "f", { name: "F" })
      yield* flags.replaceTargeting(projectId, "f", {
        environment: "production",
        enabled: true,
        defaultVariationKey: "on",
        offVariationKey: "off",
        rules: []
      })
      yield* flags.remove(projectId, "f")
      for (let i = 0; i < 5; i++) yield* tick
      yield* TestClock.adjust("1 hour")
      yield* tick
      expect(on.received.map((x) => JSON.parse(x.body).type)).toEqual(["flag.updated", "targeting.updated", "flag.deleted"])
      expect(JSON.parse(on.received[1]!.body).data.environment).toBe("production")
      expect(off.received).toEqual([])
      expect(yield* webhooks.deliveries(projectId, disabled.id)).toEqual([])
    }).pipe(Effect.provide(webhookEnv(backend)), Effect.scoped))

  it.effect("a webhook receives exactly the events that occur after its creation, while it is enabled", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 200)
      const { flags, projectId, webhooks } = yield* setup
      const keys = () => r.received.map((x) => JSON.parse(x.body).data.flag.key)
      // Each event below happens before a fan-out runs, as when the dispatcher polls a moment later.
      yield* flags.create(projectId, booleanFlag("before-creation"))
      yield* TestClock.adjust("500 millis")
      const hook = yield* webhooks.create(projectId, { url: r.url, events: ["flag.created"] })
      yield* TestClock.adjust("1 millis")
      yield* flags.create(projectId, booleanFlag("after-creation"))
      yield* tick
      expect(keys()).toEqual(["after-creation"])

      yield* webhooks.patch(projectId, hook.id, { enabled: false })
      yield* TestClock.adjust("1 millis")
      yield* flags.create(projectId, booleanFlag("while-disabled"))
      yield* TestClock.adjust("1 millis")
      yield* webhooks.patch(projectId, hook.id, { enabled: true })
      yield* TestClock.adjust("1 millis")
      yield* flags.create(projectId, booleanFlag("re-enabled"))
      yield* tick
      expect(keys()).toEqual(["after-creation", "re-enabled"])

      // Disabled after the event but before the fan-out: the event is still its own, held until enabled.
      yield* TestClock.adjust("1 millis")
      yield* flags.create(projectId, booleanFlag("just-before-disable"))
      yield* TestClock.adjust("1 millis")
      yield* webhooks.patch(projectId, hook.id, { enabled: false })
      yield* tick
      expect(keys()).toEqual(["after-creation", "re-enabled"])
      yield* webhooks.patch(projectId, hook.id, { enabled: true })
      yield* tick
      expect(keys()).toEqual(["after-creation", "re-enabled", "just-before-disable"])
      expect((yield* webhooks.deliveries(projectId, hook.id)).map((d) => d.status)).toEqual(["succeeded", "succeeded", "succeeded"])
    }).pipe(Effect.provide(webhookEnv(backend)), Effect.scoped))

  it.effect("delivers in order per webhook: a failing event holds back the later ones", () =>
    Effect.gen(function* () {
      // The first request fails; everything after succeeds.
      const r = yield* receiver((_, i) => (i === 0 ? 503 : 200))
      const { flags, projectId, webhooks } = yield* setup
      const hook = yield* webhooks.create(projectId, { url: r.url, events: ["flag.created"] })
      yield* flags.create(projectId, booleanFlag("a"))
      yield* flags.create(projectId, booleanFlag("b"))
      yield* flags.create(projectId, booleanFlag("c"))
      const events = (yield* (yield* EventOutbox).list(projectId)).map((e) => e.event.id)
      yield* tick
      yield* tick
      yield* tick
      expect(ids(r.received)).toEqual([events[0]])
      yield* TestClock.adjust(RETRY_DELAYS_MS[0]! * 1.1 + 1)
      for (let i = 0; i < 4; i++) yield* tick
      expect(ids(r.received)).toEqual([events[0], events[0], events[1], events[2]])
      const log = yield* webhooks.deliveries(projectId, hook.id)
      expect(log.map((d) => [d.status, d.attempts.map((a) => a.statusCode)])).toEqual([
        ["succeeded", [503, 200]],
        ["succeeded", [200]],
        ["succeeded", [200]]
      ])
    }).pipe(Effect.provide(webhookEnv(backend)), Effect.scoped))

  it.effect("retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (+ <= 10% jitter), then fails", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 500)
      const { flags, projectId, webhooks } = yield* setup
      const hook = yield* webhooks.create(projectId, { url: r.url, events: ["flag.created"] })
      yield* flags.create(projectId, booleanFlag("f"))
      yield* tick
      for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
        const [delivery] = yield* webhooks.deliveries(projectId, hook.id)
        expect(delivery!.status).toBe("pending")
        expect(delivery!.attempts).toHaveLength(i + 1)
        const last = delivery!.attempts[i]!
        expect(last).toMatchObject({ statusCode: 500, error: "HTTP 500: the receiver failed" }) // never the answer's body ("ok")
        const wait = Date.parse(last.nextAttemptAt!) - Date.parse(last.attemptedAt)
        expect(wait).toBeGreaterThanOrEqual(delay)
        expect(wait).toBeLessThanOrEqual(delay * 1.1 + 1)
        expect(delivery!.nextAttemptAt).toBe(last.nextAttemptAt)
        // One millisecond early: nothing goes out. On time: the retry does.
        yield* TestClock.setTime(Date.parse(last.nextAttemptAt!) - 1)
        expect((yield* tick).sent).toBe(0)
        yield* TestClock.setTime(Date.parse(last.nextAttemptAt!))
        expect((yield* tick).sent).toBe(1)
      }
      const [delivery] = yield* webhooks.deliveries(projectId, hook.id)
      expect(delivery!.status).toBe("failed")
      expect(delivery!.nextAttemptAt).toBeNull()
      expect(delivery!.attempts).toHaveLength(8)
      expect(delivery!.attempts[7]!.nextAttemptAt).toBeNull()
      expect(r.received).toHaveLength(8)
      // Every retry carries the same webhook-id.
      expect(new Set(ids(r.received)).size).toBe(1)
      yield* TestClock.adjust("30 days")
      expect((yield* tick).sent).toBe(0)
    }).pipe(Effect.provide(webhookEnv(backend)), Effect.scoped))

  it.effect("no answer within 10 s is a failed attempt (timeout), retried later", () =>
    Effect.gen(function* () {
      const r = yield* receiver((_, i) => (i === 0 ? "hang" : 200))
      const { flags, projectId, webhooks } = yield* setup
      const hook = yield* webhooks.create(projectId, { url: r.url, events: ["flag.created"] })
      yield* flags.create(projectId, booleanFlag("f"))
      const running = yield* Effect.fork(tick)
      yield* Effect.promise(() => r.waitFor(1))
      yield* TestClock.adjust("9999 millis")
      yield* Effect.yieldNow()
      expect(running.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(running)
      const [delivery] = yield* webhooks.deliveries(projectId, hook.id)
      expect(delivery!.attempts[0]).toMatchObject({ statusCode: null, error: "timed out after 10000 ms" })
      expect(delivery!.status).toBe("pending")
      yield* TestClock.adjust("6 seconds")
      yield* tick
      expect((yield* webhooks.deliveries(projectId, hook.id))[0]!.status).toBe("succeeded")
    }).pipe(Effect.provide(webhookEnv(backend)), Effect.scoped))

  it.effect("secret rotation: both secrets sign for 24 h, then only the new one", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 200)
      const { flags, projectId, webhooks } = yield* setup
      const hook = yield* webhooks.create(projectId, { url: r.url, events: ["flag.created"], secret: "old-secret-1" })
      const rotated = yield* webhooks.patch(projectId, hook.id, { secret: "new-secret-2" })
      expect(rotated.previousSecretExpiresAt).toBeDefined()

      yield* flags.create(projectId, booleanFlag("during"))
      yield* tick
      const during = r.received[0]!
      expect(signatures(during)).toHaveLength(2)
      for (const secret of ["old-secret-1", "new-secret-2"]) {
        expect(new StandardWebhook(toStandardSecret(secret)).verify(during.body, during.headers as Record<string, string>)).toBeTruthy()
      }

      // Just before the 24 h end, both still sign.
      yield* TestClock.setTime(Date.parse(rotated.previousSecretExpiresAt!) - 1000)
      yield* flags.create(projectId, booleanFlag("late"))
      yield* tick
      expect([signedWith("old-secret-1", r.received[1]!), signedWith("new-secret-2", r.received[1]!)]).toEqual([true, true])

      yield* TestClock.setTime(Date.parse(rotated.previousSecretExpiresAt!))
      expect((yield* webhooks.get(projectId, hook.id)).previousSecretExpiresAt).toBeUndefined()
      yield* flags.create(projectId, booleanFlag("after"))
      yield* tick
      const after = r.received[2]!
      expect(signatures(after)).toHaveLength(1)
      expect(signedWith("new-secret-2", after)).toBe(true)
      expect(signedWith("old-secret-1", after)).toBe(false)
    }).pipe(Effect.provide(webhookEnv(backend)), Effect.scoped))

  it.effect("redeliver sends a settled delivery again with the same webhook-id", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 200)
      const { flags, projectId, webhooks } = yield* setup
      const hook = yield* webhooks.create(projectId, { url: r.url, events: ["flag.created"], secret: "secret-123" })
      yield* flags.create(projectId, booleanFlag("f"))
      yield* tick
      const [first] = yield* webhooks.deliveries(projectId, hook.id)
      const again = yield* webhooks.redeliver(projectId, hook.id, first!.id)
      yield* tick
      expect(r.received).toHaveLength(2)
      expect(ids(r.received)).toEqual([first!.eventId, first!.eventId])
      expect(r.received[1]!.body).toBe(r.received[0]!.body)
      const log = yield* webhooks.deliveries(projectId, hook.id)
      expect(log.map((d) => [d.id, d.status, d.redeliveryOf])).toEqual([
        [first!.id, "succeeded", null],
        [again.id, "succeeded", first!.id]
      ])
    }).pipe(Effect.provide(webhookEnv(backend)), Effect.scoped))

  it.effect("the dispatcher layer runs on its own, polling on the Clock", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 200)
      const { flags, projectId, webhooks } = yield* setup
      yield* webhooks.create(projectId, { url: r.url, events: ["flag.created"] })
      const realPause = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
      yield* Layer.build(WebhookDispatcher.layerWith({ pollInterval: "2 seconds" }))
      yield* realPause // its first round finds nothing, then it sleeps on the TestClock
      yield* flags.create(projectId, booleanFlag("f"))
      yield* realPause
      expect(r.received).toHaveLength(0) // it sleeps on the TestClock until the next poll
      yield* TestClock.adjust("2 seconds")
      yield* Effect.promise(() => r.waitFor(1))
      expect(JSON.parse(r.received[0]!.body).data.flag.key).toBe("f")
    }).pipe(Effect.provide(webhookEnv(backend)), Effect.scoped))
})
