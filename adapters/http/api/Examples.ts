/**
 * The request examples of the OpenAPI document (and so of the `/docs` try-it bodies): one story
 * that the server accepts in this order on a fresh server (test/http/Examples.test.ts sends them).
 * A project `shop` with a `production` environment, a boolean flag `new-checkout` served to beta
 * users and to 10% of everyone else, a segment, a webhook, and an evaluation.
 */
import type { CreateFlagInput, PatchFlagInput } from "../../../src/domain/definitions/Flag.js"
import type { CreateEnvironmentInput, CreateProjectInput } from "../../../src/domain/definitions/Project.js"
import type { CreateSegmentInput, PatchSegmentInput } from "../../../src/domain/definitions/Segment.js"
import type { TargetingInput } from "../../../src/domain/definitions/Targeting.js"
import type { CreateWebhookInput, PatchWebhookInput } from "../../../src/domain/webhooks/Webhook.js"
import type { EvaluateRequest } from "../shared/EvaluationRequests.js"

export const createProject: CreateProjectInput = { id: "shop", name: "Shop" }

export const createEnvironment: CreateEnvironmentInput = { key: "production", name: "Production" }

export const createFlag: CreateFlagInput = {
  key: "new-checkout",
  name: "New checkout",
  description: "The redesigned checkout flow",
  type: "boolean",
  variations: [{ key: "on", value: true }, { key: "off", value: false }]
}

export const patchFlag: PatchFlagInput = { name: "New checkout flow", description: "The one-page checkout" }

export const replaceTargeting: TargetingInput = {
  environment: "production",
  enabled: true,
  defaultVariationKey: "off",
  offVariationKey: "off",
  rules: [
    { name: "Beta users", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" },
    {
      name: "10% of everyone else",
      conditions: [],
      rollout: { variations: [{ variationKey: "on", weight: 10_000 }, { variationKey: "off", weight: 90_000 }] }
    }
  ]
}

export const createSegment: CreateSegmentInput = {
  key: "staff",
  name: "Staff",
  description: "Everyone with a company address",
  conditions: [{ attribute: "email", operator: "endsWith", values: ["@shop.example"] }]
}

export const patchSegment: PatchSegmentInput = { description: "Employees and contractors" }

export const createWebhook: CreateWebhookInput = {
  url: "https://hooks.shop.example/flagport",
  events: ["flag.updated", "targeting.updated"],
  secret: "a-long-random-secret"
}

export const patchWebhook: PatchWebhookInput = { enabled: false }

export const evaluate: EvaluateRequest = {
  projectId: "shop",
  environment: "production",
  context: { key: "user-42", attributes: { plan: "beta", email: "ada@shop.example" } }
}
