/** The webhooks handlers: each a call to the `Webhooks` use case, which decides who may ask for it. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Webhooks } from "../../../../src/services/webhooks/Webhooks.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"

export const WebhooksLive = HttpApiBuilder.group(FlagportApi, "webhooks", (handlers) =>
  handlers
    .handle("create", ({ path, payload }) => Effect.flatMap(Webhooks, (webhooks) => mapped(webhooks.create(path.projectId, payload))))
    .handle("list", ({ path }) => Effect.flatMap(Webhooks, (webhooks) => Effect.map(mapped(webhooks.list(path.projectId)), (data) => ({ data }))))
    .handle("get", ({ path }) => Effect.flatMap(Webhooks, (webhooks) => mapped(webhooks.get(path.projectId, path.webhookId))))
    .handle("patch", ({ path, payload }) => Effect.flatMap(Webhooks, (webhooks) => mapped(webhooks.patch(path.projectId, path.webhookId, payload))))
    .handle("remove", ({ path }) => Effect.flatMap(Webhooks, (webhooks) => mapped(webhooks.remove(path.projectId, path.webhookId))))
    .handle("deliveries", ({ path }) =>
      Effect.flatMap(Webhooks, (webhooks) => Effect.map(mapped(webhooks.deliveries(path.projectId, path.webhookId)), (data) => ({ data }))))
    .handle("redeliver", ({ path }) =>
      Effect.flatMap(Webhooks, (webhooks) => mapped(webhooks.redeliver(path.projectId, path.webhookId, path.deliveryId))))
)
