import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import { WebhookBacklog } from "../../src/ports/WebhookBacklog.js"
import { WebhookRepository } from "../../src/ports/WebhookRepository.js"

const oldest = (times: ReadonlyArray<string>): string | null => (times.length === 0 ? null : times.reduce((a, b) => (b < a ? b : a)))

/**
 * The reference backlog, read through the other memory ports (projects -> webhooks -> deliveries):
 * a scan, fine for the data a memory store holds.
 */
export const layer = Layer.effect(
  WebhookBacklog,
  Effect.gen(function* () {
    const outbox = yield* EventOutbox
    const projects = yield* ProjectRepository
    const webhooks = yield* WebhookRepository
    return WebhookBacklog.of({
      measure: Effect.gen(function* () {
        const events = yield* outbox.pending(Number.MAX_SAFE_INTEGER)
        const pending: Array<string> = []
        for (const project of yield* projects.list()) {
          for (const webhook of yield* webhooks.list(project.id)) {
            for (const delivery of yield* webhooks.listDeliveries(webhook.id)) if (delivery.status === "pending") pending.push(delivery.createdAt)
          }
        }
        return {
          outboxEvents: events.length,
          oldestEventAt: oldest(events.map((e) => e.event.occurredAt)),
          pendingDeliveries: pending.length,
          oldestDeliveryAt: oldest(pending)
        }
      })
    })
  })
)
