import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type Forbidden, InvalidRequest, type Problem, ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import { deliveryNotFound, webhookNotFound } from "../../domain/NotFound.js"
import type { CreateWebhookInput, PatchWebhookInput, Webhook } from "../../domain/webhooks/Webhook.js"
import type { Delivery } from "../../domain/webhooks/WebhookDelivery.js"
import * as WebhookInput from "../../domain/webhooks/WebhookInput.js"
import { DEFAULT_WEBHOOKS_PER_PROJECT, webhookCapMessage } from "../../domain/webhooks/WebhookQuota.js"
import { initialWindow, nextWindow } from "../../domain/webhooks/WebhookWindow.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { currentTraceParent } from "../../ports/TraceContext.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { type StoredDelivery, type StoredWebhook, WebhookRepository } from "../../ports/WebhookRepository.js"
import { authorize } from "../shared/Authorize.js"
import { currentTimestamp } from "../shared/Now.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Writes from "../shared/Writes.js"

/**
 * Webhook management and the delivery log (contract: Webhooks). Records never carry the secret:
 * `hasSecret` says whether deliveries are signed, and `previousSecretExpiresAt` is present while a
 * rotated-out secret still signs alongside the new one (24 h after the PATCH that changed it).
 * Every operation needs `manage` in the project, and no key bound to one environment: a webhook
 * receives every environment's changes (domain/auth/Permissions.ts).
 */
export interface WebhooksShape {
  /**
   * Registers a webhook (enabled unless `enabled: false`). 400 `InvalidRequest` listing every problem
   * (url not absolute http/https, no or unknown events, a secret in neither form of domain/webhooks/WebhookSecret.ts); 404 for an
   * unknown project; 409 `ResourceConflict` when the project already has the most webhooks
   * allowed (`maxPerProject`, 20 by default). Events are kept once each, in the order given.
   */
  readonly create: (
    projectId: string,
    input: CreateWebhookInput
  ) => Effect.Effect<Webhook, InvalidRequest | ResourceNotFound | ResourceConflict | Forbidden | StorageError>
  /** The project's webhooks in creation order; 404 for an unknown project. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<Webhook>, ResourceNotFound | Forbidden | StorageError>
  /** One webhook; 404 for an unknown project or webhook (a webhook of another project is unknown). */
  readonly get: (projectId: string, webhookId: string) => Effect.Effect<Webhook, ResourceNotFound | Forbidden | StorageError>
  /**
   * Changes any of url, events, enabled, secret (absent fields unchanged). A different secret
   * rotates (the old one keeps signing for 24 h); `secret: null` stops signing at once. Disabling
   * holds the webhook's pending deliveries (nothing is sent while disabled; they resume on enable)
   * and no new events are queued for it meanwhile. 400 as for create, 404.
   */
  readonly patch: (
    projectId: string,
    webhookId: string,
    input: PatchWebhookInput
  ) => Effect.Effect<Webhook, InvalidRequest | ResourceNotFound | Forbidden | StorageError>
  /** Deletes the webhook with its delivery log; 404 for an unknown project or webhook. */
  readonly remove: (projectId: string, webhookId: string) => Effect.Effect<void, ResourceNotFound | Forbidden | StorageError>
  /**
   * The webhook's deliveries, each with every attempt (time, status code, duration, error, next
   * attempt), in creation order; 404 for an unknown project or webhook.
   */
  readonly deliveries: (
    projectId: string,
    webhookId: string
  ) => Effect.Effect<ReadonlyArray<Delivery>, ResourceNotFound | Forbidden | StorageError>
  /**
   * Sends a settled (succeeded or failed) delivery again: a new delivery of the same event (same
   * `webhook-id`, so receivers can drop duplicates) with a fresh retry schedule, queued behind the
   * webhook's pending deliveries, and `redeliveryOf` naming the original. Returns the new delivery.
   * 404 for an unknown project, webhook or delivery; 409 `ResourceConflict` while the delivery is
   * still pending or the webhook is disabled.
   */
  readonly redeliver: (
    projectId: string,
    webhookId: string,
    deliveryId: string
  ) => Effect.Effect<Delivery, ResourceNotFound | ResourceConflict | Forbidden | StorageError>
}

export class Webhooks extends Context.Tag("@flagport/services/Webhooks")<Webhooks, WebhooksShape>() {}

const invalid = (problems: ReadonlyArray<Problem>) =>
  problems.length > 0 ? Effect.fail(new InvalidRequest({ message: "Invalid webhook", details: [...problems] })) : Effect.void

/** The API view of a stored delivery (without the body and project). */
export const toDelivery = (stored: StoredDelivery): Delivery => ({
  id: stored.id,
  webhookId: stored.webhookId,
  eventId: stored.eventId,
  eventType: stored.eventType,
  status: stored.status,
  nextAttemptAt: stored.nextAttemptAt,
  redeliveryOf: stored.redeliveryOf,
  attempts: stored.attempts,
  createdAt: stored.createdAt,
  updatedAt: stored.updatedAt
})

export interface WebhooksOptions {
  /** Webhooks one project may have (default 20; FLAGPORT_WEBHOOKS_PER_PROJECT with `layerConfig`). */
  readonly maxPerProject?: number
}

/** The service with its options (`make`: the defaults). */
export const makeWith = (options: WebhooksOptions = {}) => Effect.gen(function* () {
  const maxPerProject = options.maxPerProject ?? DEFAULT_WEBHOOKS_PER_PROJECT
  const projects = yield* ProjectRepository
  const webhooks = yield* WebhookRepository
  const ids = yield* IdGenerator
  const writes = yield* Writes.writer

  /** The audit entry of a write to a webhook, with the webhook as the API shows it (no secret). */
  const audited = <A>(
    value: A,
    webhookId: string,
    action: "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.redelivered",
    before: Webhook | Delivery | null,
    after: Webhook | Delivery | null
  ): Writes.Recorded<A> => ({ value, audit: [{ action, resource: { type: "webhook", key: webhookId }, before, after }] })

  const load = (projectId: string, webhookId: string) =>
    Effect.zipRight(
      requireProject(projects, projectId),
      webhooks.get(projectId, webhookId).pipe(
        Effect.flatMap(
          Option.match({ onNone: () => Effect.fail(webhookNotFound(projectId, webhookId)), onSome: Effect.succeed })
        )
      )
    )

  const create = Effect.fn("Webhooks.create")(function* (projectId: string, input: CreateWebhookInput) {
    yield* authorize("Webhooks.create", projectId)
    yield* invalid(WebhookInput.validateCreateWebhook(input))
    const id = yield* ids.next
    return yield* writes.record(projectId, ({ now }) => {
      const stored: StoredWebhook = {
        id,
        projectId,
        url: input.url,
        events: WebhookInput.uniqueEvents(input.events),
        enabled: input.enabled ?? true,
        ...initialWindow(input.enabled ?? true, now),
        secret: input.secret ?? null,
        previousSecret: null,
        previousSecretExpiresAt: null,
        createdAt: now,
        updatedAt: now
      }
      const record = WebhookInput.toRecord(stored, now)
      return Effect.gen(function* () {
        yield* requireProject(projects, projectId)
        // Counted under the project's lock, so two creations at once cannot both pass the cap.
        yield* webhooks.lockProject(projectId)
        if ((yield* webhooks.list(projectId)).length >= maxPerProject) {
          return yield* new ResourceConflict({ message: webhookCapMessage(projectId, maxPerProject) })
        }
        yield* webhooks.insert(stored)
        return audited(record, id, "webhook.created", null, record)
      })
    })
  })

  const list = Effect.fn("Webhooks.list")(function* (projectId: string) {
    yield* authorize("Webhooks.list", projectId)
    yield* requireProject(projects, projectId)
    const now = yield* currentTimestamp
    const all = yield* webhooks.list(projectId)
    return all.map((w) => WebhookInput.toRecord(w, now))
  })

  const get = Effect.fn("Webhooks.get")(function* (projectId: string, webhookId: string) {
    yield* authorize("Webhooks.get", projectId)
    const stored = yield* load(projectId, webhookId)
    return WebhookInput.toRecord(stored, yield* currentTimestamp)
  })

  const patch = Effect.fn("Webhooks.patch")(function* (projectId: string, webhookId: string, input: PatchWebhookInput) {
    yield* authorize("Webhooks.patch", projectId)
    yield* invalid(WebhookInput.validatePatchWebhook(input))
    return yield* writes.record(projectId, ({ now, millis }) =>
      Effect.gen(function* () {
        const current = yield* load(projectId, webhookId)
        const next: StoredWebhook = {
          ...current,
          ...WebhookInput.rotateSecret(current, input.secret, millis),
          url: input.url ?? current.url,
          events: input.events === undefined ? current.events : WebhookInput.uniqueEvents(input.events),
          enabled: input.enabled ?? current.enabled,
          ...nextWindow(current, input.enabled ?? current.enabled, now),
          updatedAt: now
        }
        yield* webhooks
          .update(next)
          .pipe(Effect.catchTag("NotFound", () => Effect.fail(webhookNotFound(projectId, webhookId))))
        const record = WebhookInput.toRecord(next, now)
        return audited(record, webhookId, "webhook.updated", WebhookInput.toRecord(current, now), record)
      })
    )
  })

  const remove = Effect.fn("Webhooks.remove")(function* (projectId: string, webhookId: string) {
    yield* authorize("Webhooks.remove", projectId)
    yield* writes.record(projectId, ({ now }) =>
      Effect.gen(function* () {
        const current = yield* load(projectId, webhookId)
        yield* webhooks
          .remove(projectId, webhookId)
          .pipe(Effect.catchTag("NotFound", () => Effect.fail(webhookNotFound(projectId, webhookId))))
        return audited(undefined, webhookId, "webhook.deleted", WebhookInput.toRecord(current, now), null)
      })
    )
  })

  const deliveries = Effect.fn("Webhooks.deliveries")(function* (projectId: string, webhookId: string) {
    yield* authorize("Webhooks.deliveries", projectId)
    yield* load(projectId, webhookId)
    const all = yield* webhooks.listDeliveries(webhookId)
    return all.map(toDelivery)
  })

  const redeliver = Effect.fn("Webhooks.redeliver")(function* (
    projectId: string,
    webhookId: string,
    deliveryId: string
  ) {
    yield* authorize("Webhooks.redeliver", projectId)
    const id = yield* ids.next
    return yield* writes.record(projectId, ({ now }) =>
      Effect.gen(function* () {
        const hook = yield* load(projectId, webhookId)
        const original = yield* webhooks.getDelivery(webhookId, deliveryId).pipe(
          Effect.flatMap(
            Option.match({
              onNone: () => Effect.fail(deliveryNotFound(webhookId, deliveryId)),
              onSome: Effect.succeed
            })
          )
        )
        if (original.status === "pending") {
          return yield* new ResourceConflict({ message: `Delivery '${deliveryId}' is still pending` })
        }
        if (!hook.enabled) {
          return yield* new ResourceConflict({ message: `Webhook '${webhookId}' is disabled; enable it to redeliver` })
        }
        yield* webhooks.insertDelivery({
          id,
          webhookId,
          projectId,
          eventId: original.eventId,
          eventType: original.eventType,
          payload: original.payload,
          nextAttemptAt: now,
          redeliveryOf: original.id,
          createdAt: now,
          // The redelivery request is the write that causes this send.
          traceparent: yield* currentTraceParent
        })
        const created = toDelivery(Option.getOrThrow(yield* webhooks.getDelivery(webhookId, id)))
        // The webhook is unchanged; the entry shows the delivery the redelivery made.
        return audited(created, webhookId, "webhook.redelivered", null, created)
      })
    )
  })

  return Webhooks.of({ create, list, get, patch, remove, deliveries, redeliver })
})

export const make = makeWith()

/** The Webhooks service over ProjectRepository, WebhookRepository and what a write needs (Writes.ts); 20 webhooks per project. */
export const layer = Layer.effect(Webhooks, make)

/** `layer` with its options. */
export const layerWith = (options: WebhooksOptions) => Layer.effect(Webhooks, makeWith(options))

/** FLAGPORT_WEBHOOKS_PER_PROJECT: a whole number, at least 1 (default 20); anything else stops the start. */
export const config = Config.integer("FLAGPORT_WEBHOOKS_PER_PROJECT").pipe(
  Config.withDefault(DEFAULT_WEBHOOKS_PER_PROJECT),
  Config.validate({ message: "Expected a whole number of webhooks, at least 1", validation: (n) => n >= 1 })
)

/** `layer` with the cap from FLAGPORT_WEBHOOKS_PER_PROJECT. */
export const layerConfig = Layer.unwrapEffect(Effect.map(config, (maxPerProject) => layerWith({ maxPerProject })))
