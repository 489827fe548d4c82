import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { config } from "./WebhookHttp.js"

/**
 * The warning at start when webhooks may reach private addresses (FLAGPORT_WEBHOOK_BLOCK_PRIVATE
 * is off, the default) while some project has a server key of its own: whoever holds that key
 * can then make this server POST to loopback and the internal network (and see the status each
 * answer carries). A global key's holder is the operator; a project's key may be someone else's.
 * Link-local and metadata addresses are refused either way (domain/webhooks/DestinationAddress.ts).
 */
export const message = (projectKeys: number) =>
  `Webhooks may reach private and loopback addresses (FLAGPORT_WEBHOOK_BLOCK_PRIVATE is off) while ${projectKeys} project server key(s) exist: ` +
  "whoever holds one can make this server send requests into your internal network. Set FLAGPORT_WEBHOOK_BLOCK_PRIVATE=true unless every key holder is trusted with that (docs/guide/webhooks.md)."

/** Logs the warning once, at start; a failure to read the keys is logged and does not stop the start. */
export const layer: Layer.Layer<never, never, ApiKeys> = Layer.effectDiscard(
  Effect.gen(function* () {
    const { blockPrivate } = yield* config
    if (blockPrivate) return
    const keys = yield* (yield* ApiKeys).list()
    const projectKeys = keys.filter((key) => key.type === "server" && key.projectId !== null && key.revokedAt === null).length
    if (projectKeys > 0) yield* Effect.logWarning(message(projectKeys))
  }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("Could not check webhook exposure at start", cause)))
)
