import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Transactor } from "../../src/ports/Transactor.js"
import { WebhookRepository } from "../../src/ports/WebhookRepository.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { fanOut } from "../../src/services/webhooks/WebhookDispatcher.js"
import { Webhooks } from "../../src/services/webhooks/Webhooks.js"
import { claim, failedAttempt, mine } from "../webhooks/fixtures/Deliveries.js"
import { booleanFlag } from "../webhooks/fixtures/Flags.js"
import { at, MINUTE, newProject, SOON } from "./WebhookContractFixtures.js"
import type { WebhookIt } from "./WebhookRepository.contract.js"

/**
 * How dispatchers claim deliveries (WebhookRepository.claimDue, recordAttempt), run from All.ts
 * against memory, SQLite and PostgreSQL: limits, one head per webhook, leases against other
 * owners, retries until the schedule is used up, and concurrent claimers. Time is passed to
 * `claimDue` explicitly (`at(ms)`), so no test waits.
 */
export const webhookClaimContract = (it: WebhookIt) => {
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
