/** The declarations of webhooks: signed HTTP callbacks on the changes of a project, and their deliveries. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { CreateWebhookInput, PatchWebhookInput, Webhook } from "../../../../src/domain/webhooks/Webhook.js"
import { Delivery } from "../../../../src/domain/webhooks/WebhookDelivery.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { Created, dataOf, deliveryId, described, projectId, webhookId } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { ManagementAuth } from "../Security.js"

// The resource with its example: one instance, so every operation refers to one component.
const WebhookDoc = Webhook.annotations({ examples: [Examples.webhook] })

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/webhooks`
      .setPayload(strict(CreateWebhookInput).annotations({ examples: [Examples.createWebhook] }))
      .addSuccess(Created(WebhookDoc))
      .addError(Errors.Conflict),
    "Create a webhook",
    "Subscribes a URL to change events of the project (see the `webhooks` section for the payloads). Deliveries are signed as Standard Webhooks with the secret. 409 when the project already has the most webhooks allowed (20 unless FLAGPORT_WEBHOOKS_PER_PROJECT says otherwise)."
  ))
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/webhooks`.addSuccess(dataOf(WebhookDoc)),
    "List webhooks",
    "Every webhook of the project (secrets are never returned)."
  ))
  .add(described(
    HttpApiEndpoint.get("get")`/v1/projects/${projectId}/webhooks/${webhookId}`.addSuccess(WebhookDoc),
    "Get a webhook",
    "One webhook (its secret is never returned)."
  ))
  .add(described(
    HttpApiEndpoint.patch("patch")`/v1/projects/${projectId}/webhooks/${webhookId}`
      .setPayload(strict(PatchWebhookInput).annotations({ examples: [Examples.patchWebhook] }))
      .addSuccess(WebhookDoc),
    "Update a webhook",
    "Changes the URL, the events, the secret or whether it is enabled; send only what changes."
  ))
  .add(described(
    HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/webhooks/${webhookId}`.addSuccess(HttpApiSchema.NoContent),
    "Delete a webhook",
    "Deletes the webhook; it receives no further deliveries."
  ))
  .add(described(
    HttpApiEndpoint.get("deliveries")`/v1/projects/${projectId}/webhooks/${webhookId}/deliveries`.addSuccess(dataOf(Delivery)),
    "List a webhook's deliveries",
    "The webhook's deliveries in creation order, each with every attempt (time, status code, duration, error, next attempt)."
  ))
  .add(described(
    HttpApiEndpoint.post("redeliver")`/v1/projects/${projectId}/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`
      .addSuccess(Created(Delivery))
      .addError(Errors.Conflict),
    "Redeliver an event",
    "Sends a settled (succeeded or failed) delivery again: a new delivery of the same event (same `webhook-id`, so receivers can drop duplicates) with a fresh retry schedule. 409 while the delivery is still pending or the webhook is disabled."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Webhooks: signed HTTP callbacks on every change of a project's flags and segments.") {}
