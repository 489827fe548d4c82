import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { WebhookRepository } from "../../src/ports/WebhookRepository.js"
import { Webhooks } from "../../src/services/webhooks/Webhooks.js"
import { failedAttempt, settledDelivery } from "../webhooks/fixtures/Deliveries.js"
import { ancient, DAY, newProject, pruneAll } from "./WebhookContractFixtures.js"
import type { WebhookIt } from "./WebhookRepository.contract.js"

/**
 * The delivery log's retention (WebhookRepository.pruneFinished), run from All.ts against memory,
 * SQLite and PostgreSQL. Its deliveries are dated long ago (`ancient`), so pruning them touches no
 * other test's rows in the shared database.
 */
export const webhookRetentionContract = (it: WebhookIt) => {
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
}
