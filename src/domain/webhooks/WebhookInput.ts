import type { Problem } from "../Errors.js"
import type { CreateWebhookInput, PatchWebhookInput, Webhook, WebhookEventType } from "./Webhook.js"
import { validateSecret } from "./WebhookSecret.js"
import { displayedUrl, validateWebhookUrl } from "./WebhookUrl.js"

/**
 * Pure rules of webhook records: input validation, secret rotation and the public view.
 */

export const EVENT_TYPES: ReadonlyArray<WebhookEventType> = [
  "flag.created",
  "flag.updated",
  "flag.deleted",
  "targeting.updated",
  "change_request.opened",
  "change_request.approved",
  "change_request.rejected",
  "change_request.applied",
  "experiment.started",
  "experiment.stopped",
  "release_plan.started",
  "release_plan.advanced",
  "release_plan.paused",
  "release_plan.harmed",
  "release_plan.completed",
  "release_plan.cancelled"
]
/** How long a rotated-out secret keeps signing deliveries (alongside the new one). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

/** The secret-bearing fields of a stored webhook. */
export interface WebhookSecrets {
  readonly secret: string | null
  readonly previousSecret: string | null
  readonly previousSecretExpiresAt: string | null
}

const validateEvents = (events: ReadonlyArray<string>): ReadonlyArray<Problem> => {
  if (events.length === 0) return [{ path: "events", message: "must name at least one event" }]
  return events.flatMap((event, i) =>
    (EVENT_TYPES as ReadonlyArray<string>).includes(event)
      ? []
      : [{ path: `events[${i}]`, message: `unknown event '${event}'; expected one of ${EVENT_TYPES.join(", ")}` }]
  )
}

/** Every problem of a create body (url http(s), >= 1 known event, secret in one of its forms: WebhookSecret.ts). */
export const validateCreateWebhook = (input: CreateWebhookInput): ReadonlyArray<Problem> => [
  ...validateWebhookUrl(input.url),
  ...validateEvents(input.events),
  ...(input.secret === undefined ? [] : validateSecret(input.secret))
]

/** Every problem of a PATCH body; absent fields are unchanged, `secret: null` removes the secret. */
export const validatePatchWebhook = (input: PatchWebhookInput): ReadonlyArray<Problem> => [
  ...(input.url === undefined ? [] : validateWebhookUrl(input.url)),
  ...(input.events === undefined ? [] : validateEvents(input.events)),
  ...(input.secret === undefined || input.secret === null ? [] : validateSecret(input.secret))
]

/** Events in first-mention order, each once. */
export const uniqueEvents = (events: ReadonlyArray<WebhookEventType>): ReadonlyArray<WebhookEventType> => [
  ...new Set(events)
]

/**
 * The secrets after a PATCH. A new, different secret rotates: the current one becomes the
 * previous one, honoured for 24 h from `now` (a still-honoured older one is dropped). `null`
 * removes signing at once, with no overlap. The same secret, or no `secret` field, changes nothing.
 */
export const rotateSecret = (
  current: WebhookSecrets,
  next: string | null | undefined,
  nowMillis: number
): WebhookSecrets => {
  if (next === undefined || next === current.secret) return current
  if (next === null) return { secret: null, previousSecret: null, previousSecretExpiresAt: null }
  if (current.secret === null) return { secret: next, previousSecret: null, previousSecretExpiresAt: null }
  return {
    secret: next,
    previousSecret: current.secret,
    previousSecretExpiresAt: new Date(nowMillis + ROTATION_OVERLAP_MS).toISOString()
  }
}

/** True while the previous secret still signs (its expiry is after `nowIso`). */
export const previousSecretActive = (secrets: WebhookSecrets, nowIso: string): boolean =>
  secrets.previousSecret !== null && secrets.previousSecretExpiresAt !== null && secrets.previousSecretExpiresAt > nowIso

/** The secrets that sign a delivery made at `nowIso`: the current one first, then a still-honoured previous one. */
export const signingSecrets = (secrets: WebhookSecrets, nowIso: string): ReadonlyArray<string> => [
  ...(secrets.secret === null ? [] : [secrets.secret]),
  ...(previousSecretActive(secrets, nowIso) ? [secrets.previousSecret!] : [])
]

/** The API record: no secret, `hasSecret`, and `previousSecretExpiresAt` only while a rotation overlaps. */
export const toRecord = (
  stored: WebhookSecrets & Omit<Webhook, "hasSecret" | "previousSecretExpiresAt">,
  nowIso: string
): Webhook => ({
  id: stored.id,
  projectId: stored.projectId,
  url: displayedUrl(stored.url),
  events: [...stored.events],
  enabled: stored.enabled,
  hasSecret: stored.secret !== null,
  ...(previousSecretActive(stored, nowIso) ? { previousSecretExpiresAt: stored.previousSecretExpiresAt! } : {}),
  createdAt: stored.createdAt,
  updatedAt: stored.updatedAt
})
