/**
 * The webhooks handlers. A webhook receives every environment's changes (its deliveries show
 * them), so a key bound to one environment neither reads nor writes webhooks: 403, as for the
 * project's export (Policy.authorizeAllEnvironmentsRead).
 */
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { Webhooks } from "../../../../src/services/webhooks/Webhooks.js"
import { FlagportApi } from "../Api.js"
import { mapped, mayReadAll } from "../Calling.js"

/** The webhooks service, once the caller is not bound to one environment. */
const webhooksOfAll = Effect.zipRight(mayReadAll, Webhooks)

export const WebhooksLive = HttpApiBuilder.group(FlagportApi, "webhooks", (handlers) =>
  handlers
    .handle("create", ({ path, payload }) => Effect.flatMap(webhooksOfAll, (webhooks) => mapped(webhooks.create(path.projectId, payload))))
    .handle("list", ({ path }) =>
      Effect.flatMap(webhooksOfAll, (webhooks) => Effect.map(mapped(webhooks.list(path.projectId)), (data) => ({ data })))
    )
    .handle("get", ({ path }) => Effect.flatMap(webhooksOfAll, (webhooks) => mapped(webhooks.get(path.projectId, path.webhookId))))
    .handle("patch", ({ path, payload }) =>
      Effect.flatMap(webhooksOfAll, (webhooks) => mapped(webhooks.patch(path.projectId, path.webhookId, payload)))
    )
    .handle("remove", ({ path }) => Effect.flatMap(webhooksOfAll, (webhooks) => mapped(webhooks.remove(path.projectId, path.webhookId))))
    .handle("deliveries", ({ path }) =>
      Effect.flatMap(webhooksOfAll, (webhooks) =>
        Effect.map(mapped(webhooks.deliveries(path.projectId, path.webhookId)), (data) => ({ data }))
      )
    )
    .handle("redeliver", ({ path }) =>
      Effect.flatMap(webhooksOfAll, (webhooks) => mapped(webhooks.redeliver(path.projectId, path.webhookId, path.deliveryId)))
    )
)
