import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { DeliveryAttempt, DeliveryStatus } from "../../src/domain/webhooks/WebhookDelivery.js"
import { NotFound } from "../../src/ports/StorageError.js"
import {
  type ClaimedDelivery,
  type NewDelivery,
  type StoredDelivery,
  type StoredWebhook,
  toStoredDelivery,
  WebhookRepository
} from "../../src/ports/WebhookRepository.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"

/**
 * The reference WebhookRepository: two MemoryDb cells (webhooks, deliveries) that join the same
 * transactions as the other memory ports, so fan-out commits together with the outbox update.
 * A `modify` is atomic (one transaction at a time), which is what makes `claimDue` a safe lease.
 */

interface DeliveryRow extends NewDelivery {
  readonly status: DeliveryStatus
  readonly attempts: ReadonlyArray<DeliveryAttempt>
  readonly leaseOwner: string | null
  readonly leaseExpiresAt: string | null
  readonly updatedAt: string
}

const toStored = (row: DeliveryRow): StoredDelivery => jsonCopy(toStoredDelivery(row, row.attempts))

export const make = Effect.gen(function* () {
  const db = yield* MemoryDb
  const webhooks = db.makeRef<ReadonlyMap<string, StoredWebhook>>("webhooks", new Map())
  const deliveries = db.makeRef<ReadonlyArray<DeliveryRow>>("webhook_deliveries", [])

  const notFound = (id: string) => new NotFound({ entity: "webhook", key: id })

  return WebhookRepository.of({
    insert: (webhook) => webhooks.update((map) => new Map(map).set(webhook.id, jsonCopy(webhook))),
    list: (projectId) =>
      Effect.map(webhooks.get, (map) => Array.from(map.values()).filter((w) => w.projectId === projectId).map(jsonCopy)),
    get: (projectId, webhookId) =>
      Effect.map(webhooks.get, (map) =>
        Option.map(
          Option.filter(Option.fromNullable(map.get(webhookId)), (w) => w.projectId === projectId),
          jsonCopy
        )
      ),
    update: (webhook) =>
      webhooks
        .modify((map) => {
          const old = map.get(webhook.id)
          if (old === undefined || old.projectId !== webhook.projectId) return [false, map] as const
          return [true, new Map(map).set(webhook.id, jsonCopy({ ...webhook, createdAt: old.createdAt }))] as const
        })
        .pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(notFound(webhook.id))))),
    remove: (projectId, webhookId) =>
      webhooks
        .modify((map) => {
          const old = map.get(webhookId)
          if (old === undefined || old.projectId !== projectId) return [false, map] as const
          const next = new Map(map)
          next.delete(webhookId)
          return [true, next] as const
        })
        .pipe(
          Effect.flatMap((ok) =>
            ok ? deliveries.update((rows) => rows.filter((d) => d.webhookId !== webhookId)) : Effect.fail(notFound(webhookId))
          )
        ),

    // One transaction at a time already: nothing to serialize.
    lockForFanOut: Effect.void,
    subscribers: (projectId, type) =>
      Effect.map(webhooks.get, (map) =>
        Array.from(map.values())
          .filter((w) => w.projectId === projectId && w.enabledAt !== null && w.events.includes(type))
          .map((w) => ({ id: w.id, enabledAt: w.enabledAt, disabledAt: w.disabledAt }))
      ),
    insertDelivery: (delivery) =>
      deliveries.update((rows) => [
        ...rows,
        {
          ...jsonCopy(delivery),
          status: "pending",
          attempts: [],
          leaseOwner: null,
          leaseExpiresAt: null,
          updatedAt: delivery.createdAt
        }
      ]),

    claimDue: ({ leaseUntil, limit, now, owner, projectId }) =>
      Effect.flatMap(webhooks.get, (hooks) =>
        deliveries.modify((rows) => {
          const heads = new Set<string>()
          const claimed: Array<ClaimedDelivery> = []
          const next = rows.map((row) => {
            if (row.status !== "pending" || heads.has(row.webhookId)) return row
            heads.add(row.webhookId) // the oldest pending delivery of its webhook
            const hook = hooks.get(row.webhookId)
            const leased = row.leaseExpiresAt !== null && row.leaseExpiresAt > now
            if (hook === undefined || !hook.enabled || leased || row.nextAttemptAt > now || claimed.length >= limit) {
              return row
            }
            if (projectId !== undefined && row.projectId !== projectId) return row
            claimed.push({
              deliveryId: row.id,
              webhookId: row.webhookId,
              projectId: row.projectId,
              eventId: row.eventId,
              payload: row.payload,
              attemptsMade: row.attempts.length,
              url: hook.url,
              secret: hook.secret,
              previousSecret: hook.previousSecret,
              previousSecretExpiresAt: hook.previousSecretExpiresAt,
              traceparent: row.traceparent ?? null
            })
            return { ...row, leaseOwner: owner, leaseExpiresAt: leaseUntil }
          })
          return [claimed, claimed.length === 0 ? rows : next] as const
        })
      ),
    dueProjects: ({ limit, now }) =>
      Effect.flatMap(webhooks.get, (hooks) =>
        Effect.map(deliveries.get, (rows) => {
          const heads = new Set<string>()
          const projects: Array<string> = []
          for (const row of rows) {
            if (row.status !== "pending" || heads.has(row.webhookId)) continue
            heads.add(row.webhookId)
            const hook = hooks.get(row.webhookId)
            const leased = row.leaseExpiresAt !== null && row.leaseExpiresAt > now
            if (hook === undefined || !hook.enabled || leased || row.nextAttemptAt > now) continue
            if (!projects.includes(row.projectId)) projects.push(row.projectId)
          }
          return projects.slice(0, limit)
        })
      ),
    lockProject: () => Effect.void,
    recordAttempt: ({ attempt, deliveryId, owner, status }) =>
      deliveries.modify((rows) => {
        let settled = false
        const next = rows.map((row) => {
          if (row.id !== deliveryId) return row
          const attempts = [...row.attempts, jsonCopy(attempt)]
          if (row.leaseOwner !== owner || row.status !== "pending") return { ...row, attempts }
          settled = true
          return {
            ...row,
            attempts,
            status,
            nextAttemptAt: attempt.nextAttemptAt ?? row.nextAttemptAt,
            leaseOwner: null,
            leaseExpiresAt: null,
            updatedAt: attempt.attemptedAt
          }
        })
        return [settled, next] as const
      }),

    pruneFinished: (before, limit) =>
      deliveries.modify((rows) => {
        // Attempts live inside their delivery row, so they go with it.
        // Oldest finished first (by finish time, then creation order: the sort is stable).
        const candidates = rows.filter((row) => row.status !== "pending" && row.updatedAt < before)
        candidates.sort((a, b) => (a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : 0))
        const doomed = new Set(candidates.slice(0, Math.max(0, limit)).map((row) => row.id))
        return [doomed.size, doomed.size === 0 ? rows : rows.filter((row) => !doomed.has(row.id))] as const
      }),

    listDeliveries: (webhookId) =>
      Effect.map(deliveries.get, (rows) => rows.filter((d) => d.webhookId === webhookId).map(toStored)),
    getDelivery: (webhookId, deliveryId) =>
      Effect.map(deliveries.get, (rows) =>
        Option.map(Option.fromNullable(rows.find((d) => d.id === deliveryId && d.webhookId === webhookId)), toStored)
      )
  })
})

/** The memory WebhookRepository; needs the MemoryDb that `MemoryStorage.layer` provides. */
export const layer: Layer.Layer<WebhookRepository, never, MemoryDb> = Layer.effect(WebhookRepository, make)
