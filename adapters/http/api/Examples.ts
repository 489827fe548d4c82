/**
 * The request and response examples of the OpenAPI document (and so of the `/docs` try-it
 * bodies): one story
 * that the server accepts in this order on a fresh server (test/http/Examples.test.ts sends them).
 * A project `shop` with a `production` environment, a boolean flag `new-checkout` served to beta
 * users and to 10% of everyone else, a segment, a webhook, and an evaluation.
 */
import type { ChangeRequest, CreateChangeRequestInput } from "../../../src/domain/changes/ChangeRequest.js"
import type { AuditEntry } from "../../../src/domain/audit/AuditEntry.js"
import type { ApiKey, CreatedApiKey, CreateProjectKeyInput } from "../../../src/domain/auth/ApiKey.js"
import type { CreateFlagInput, Flag, PatchFlagInput } from "../../../src/domain/definitions/Flag.js"
import type { CreateEnvironmentInput, CreateProjectInput, Environment, Project } from "../../../src/domain/definitions/Project.js"
import type { CreateSegmentInput, PatchSegmentInput, Segment } from "../../../src/domain/definitions/Segment.js"
import type { TargetingInput } from "../../../src/domain/definitions/Targeting.js"
import type { CreateWebhookInput, PatchWebhookInput, Webhook } from "../../../src/domain/webhooks/Webhook.js"
import type { CopyEnvironmentInput } from "../../../src/domain/definitions/CopyEnvironmentInput.js"
import type { EvaluateRequest, EvaluateResponse, ExplainRequest } from "../shared/EvaluationRequests.js"
import type { CreateScheduleInput, Schedule } from "../../../src/domain/schedules/Schedule.js"
import type { InsightsReceipt, InsightsReport, InsightsSeries } from "../../../src/domain/insights/Insights.js"
import type { FlagWithUsage } from "../../../src/domain/insights/Usage.js"
import type { Explanation } from "../../../src/domain/evaluation/Trace.js"
import type { Member } from "../../../src/domain/people/Member.js"
import type { User, UserWithMemberships } from "../../../src/domain/people/User.js"

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

export const explain: ExplainRequest = { ...evaluate, flagKey: "new-checkout" }

// Response examples: what the server answers along the same story.

export const project: Project = { id: "shop", name: "Shop", createdAt: "2026-11-23T09:00:00.000Z", updatedAt: "2026-11-23T09:00:00.000Z" }

export const environment: Environment = {
  id: "01a2089b-5a40-7da3-ac9e-8bba6013ce7b",
  projectId: "shop",
  key: "production",
  name: "Production",
  clientConfig: "full",
  protected: false,
  requiredApprovals: 1,
  createdAt: "2026-11-23T09:00:01.000Z"
}

export const flag: Flag = {
  id: "01a2089b-5a6a-7823-8988-666f950bf066",
  key: "new-checkout",
  name: "New checkout flow",
  description: "The one-page checkout",
  type: "boolean",
  variations: [{ key: "on", value: true }, { key: "off", value: false }],
  configs: [{
    environmentKey: "production",
    enabled: true,
    defaultVariationKey: "off",
    offVariationKey: "off",
    prerequisites: [],
    rules: [
      {
        id: "rule-01a2089b-5aa7-787c-bc94-ebe8884d1b27",
        name: "Beta users",
        conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }],
        variationKey: "on"
      },
      {
        id: "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368",
        name: "10% of everyone else",
        conditions: [],
        rollout: { variations: [{ variationKey: "on", weight: 10_000 }, { variationKey: "off", weight: 90_000 }] }
      }
    ],
    version: 3
  }],
  createdAt: "2026-11-23T09:00:02.000Z",
  updatedAt: "2026-11-23T09:05:00.000Z",
  version: 3
}

export const segment: Segment = {
  id: "01a2089b-5ae4-7258-bdc4-ec555d17c272",
  projectId: "shop",
  key: "staff",
  name: "Staff",
  description: "Employees and contractors",
  conditions: [{ attribute: "email", operator: "endsWith", values: ["@shop.example"] }],
  keyAttribute: "key",
  createdAt: "2026-11-23T09:06:00.000Z",
  updatedAt: "2026-11-23T09:07:00.000Z"
}

/** A key list after an upload, and a change of a few of its keys. */
export const keyList = { list: "included" as const, version: 2, count: 2, updatedAt: "2026-11-23T09:08:00.000Z" }
export const patchKeys = { add: ["user-3"], remove: ["user-1"] }

export const webhook: Webhook = {
  id: "01a2089b-5b33-78af-83b2-a4f59a6ea1e0",
  projectId: "shop",
  url: "https://hooks.shop.example/flagport",
  events: ["flag.updated", "targeting.updated"],
  enabled: true,
  hasSecret: true,
  createdAt: "2026-11-23T09:08:00.000Z",
  updatedAt: "2026-11-23T09:08:00.000Z"
}

export const evaluated: typeof EvaluateResponse.Type = {
  environment: "production",
  flags: {
    "new-checkout": {
      flagKey: "new-checkout",
      value: true,
      variationKey: "on",
      reason: { kind: "RULE_MATCH", ruleId: "rule-01a2089b-5aa7-787c-bc94-ebe8884d1b27", ruleIndex: 0 }
    }
  }
}

export const explained: Explanation = {
  result: evaluated.flags["new-checkout"]!,
  trace: {
    flagKey: "new-checkout",
    prerequisites: [],
    rules: [
      {
        ruleId: "rule-01a2089b-5aa7-787c-bc94-ebe8884d1b27",
        ruleIndex: 0,
        matched: true,
        conditions: [{ attribute: "plan", operator: "in", values: ["beta"], negate: false, absent: false, value: "beta", matched: true }]
      }
    ]
  }
}

export const createKey: CreateProjectKeyInput = { type: "client", name: "Storefront" }

export const apiKey: ApiKey = {
  id: "key_01JDQ7Z6X5V4T3S2R1Q0P9N8M7",
  type: "client",
  projectId: "shop",
  name: "Storefront",
  environment: null,
  prefix: "cli_Xy7Q",
  createdAt: "2026-11-23T09:00:05.000Z",
  createdBy: null,
  lastUsedAt: null,
  revokedAt: null
}

export const createdKey: CreatedApiKey = { ...apiKey, key: "cli_Xy7Q2mJ8vN4bR6tK1pL9sD3fG5hW0zA" }

export const copyEnvironment: CopyEnvironmentInput = { from: "production", flags: ["new-checkout"] }

export const copied: { readonly data: ReadonlyArray<string> } = { data: ["new-checkout"] }

// Scheduled changes: launch day at 09:00 UTC turns the flag on for everyone.
export const createSchedule: CreateScheduleInput = {
  environment: "production",
  at: "2027-03-01T09:00:00Z",
  targeting: { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
}

export const schedule: Schedule = {
  id: "01a2089b-6c44-7f10-9d2e-3b8c1f0a4d55",
  flagKey: "new-checkout",
  environment: "production",
  at: "2027-03-01T09:00:00.000Z",
  targeting: { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] },
  status: "pending",
  createdAt: "2026-11-23T09:10:00.000Z",
  actor: { type: "key", keyId: "01a2089b-4a21-7c3e-8b5f-6d7e8f9a0b1c", keyName: "Release manager" }
}

// Change requests.

export const openChangeRequest: CreateChangeRequestInput = {
  title: "Turn the new checkout on in production",
  description: "Tested in development since Monday",
  environment: "production",
  changes: [{ flagKey: "new-checkout", targeting: { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] } }]
}

export const changeRequest: ChangeRequest = {
  id: "01a2089b-7d55-7a21-8e3f-4c9d2a1b5e66",
  projectId: "shop",
  environment: "production",
  title: "Turn the new checkout on in production",
  description: "Tested in development since Monday",
  status: "open",
  author: { type: "user", userId: "01a2089b-3b10-7b2d-9a4e-5c6d7e8f9a0b", email: "edna@example.com" },
  createdAt: "2026-11-23T09:20:00.000Z",
  updatedAt: "2026-11-23T09:20:00.000Z",
  changes: [{
    flagKey: "new-checkout",
    baseVersion: 3,
    before: { enabled: false, defaultVariationKey: "on", offVariationKey: "off", prerequisites: [], rules: [] },
    after: {
      enabled: true,
      defaultVariationKey: "off",
      offVariationKey: "off",
      rules: [{ name: "Beta testers", conditions: [{ operator: "inSegment", values: ["beta-testers"] }], variationKey: "on" }]
    }
  }],
  segments: [{
    key: "beta-testers",
    name: "Beta testers",
    conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }],
    updatedAt: "2026-11-20T16:05:00.000Z"
  }],
  releasePlans: [],
  approvals: [],
  requiredApprovals: 1,
  applyAt: null,
  rejection: null,
  appliedAt: null,
  appliedBy: null,
  failure: null,
  countingApprovals: 0
}

// Evaluation insights.

export const flagWithUsage: FlagWithUsage = {
  ...flag,
  // A flag just created has never been evaluated; once it has, `lastEvaluatedAt` is an ISO 8601 instant.
  configs: flag.configs.map((config) => ({ ...config, version: config.version ?? flag.version, lastEvaluatedAt: null })),
  stale: false
}

export const insightsReport: InsightsReport = {
  projectId: "shop",
  environment: "production",
  from: "2026-11-23T14:00:00.000Z",
  to: "2026-11-23T14:01:00.000Z",
  counts: [{ flagKey: "new-checkout", variationKey: "on", count: 120 }, { flagKey: "new-checkout", variationKey: "off", count: 880 }]
}

export const insightsSeries: InsightsSeries = {
  flagKey: "new-checkout",
  environment: "production",
  from: "2026-11-23T13:00:00.000Z",
  to: "2026-11-23T14:00:00.000Z",
  variations: [
    { variationKey: "on", total: 230, points: [{ hour: "2026-11-23T13:00:00.000Z", count: 110 }, { hour: "2026-11-23T14:00:00.000Z", count: 120 }] },
    { variationKey: "off", total: 1720, points: [{ hour: "2026-11-23T13:00:00.000Z", count: 840 }, { hour: "2026-11-23T14:00:00.000Z", count: 880 }] }
  ]
}

export const insightsReceipt: InsightsReceipt = { accepted: 2, ignored: 0 }

// The audit log after the story's key was made: the newest entry first.
export const auditPage: { readonly data: ReadonlyArray<AuditEntry>; readonly nextCursor: string | null } = {
  data: [{
    id: "01a2089b-5c10-7a41-9c3e-5d2f8e7b6a90",
    projectId: "shop",
    at: "2026-11-23T09:00:05.000Z",
    actor: { type: "key", keyId: "key_01JDQ6A2B3C4D5E6F7G8H9J0K1", keyName: "Release manager" },
    action: "key.created",
    resource: { type: "key", key: "key_01JDQ7Z6X5V4T3S2R1Q0P9N8M7" },
    before: null,
    after: apiKey
  }],
  nextCursor: "YXVkaXQ6MTI"
}

// People: Edna is invited as an editor of the shop, sets her password with the link, and signs in.
export const edna: User = {
  id: "usr_01JDQ8B4C5D6E7F8G9H0J1K2L3",
  email: "edna@shop.example",
  name: "Edna",
  admin: false,
  createdAt: "2026-11-23T09:10:00.000Z",
  lastSignInAt: null,
  disabledAt: null,
  sso: false
}

export const inviteUser = { email: "edna@shop.example", name: "Edna", projects: [{ projectId: "shop", role: "editor" as const }] }

export const invitedUser = { user: edna, setupUrl: "https://flags.shop.example/ui/setup#token=3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }

export const setupLink = { setupUrl: invitedUser.setupUrl }

export const setup = { token: "3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", password: "correct horse battery staple" }

export const login = { email: "edna@shop.example", password: "correct horse battery staple" }

export const signedIn: UserWithMemberships = {
  user: { ...edna, lastSignInAt: "2026-11-23T09:12:00.000Z" },
  memberships: [{ projectId: "shop", role: "editor" }]
}

export const patchUser = { name: "Edna Mode" }

export const memberRole = { role: "admin" as const }

export const member: Member = { user: { ...edna, name: "Edna Mode" }, role: "admin" }

export const providers = { password: true as const, oidc: { name: "Acme SSO" } }

/** A project file applied to the story's project: a new flag, on in production. */
export const applyFile = {
  project: { id: "shop" },
  flags: [{
    key: "dark-mode",
    name: "Dark mode",
    type: "boolean" as const,
    variations: [{ key: "on", value: true }, { key: "off", value: false }],
    environments: [{ key: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off" }]
  }]
}

/** What applying `applyFile` answers. */
export const applied = {
  projectId: "shop",
  dryRun: false,
  applied: true,
  summary: { create: 1, update: 1, delete: 0 },
  changes: [
    {
      resource: "flag" as const,
      action: "create" as const,
      key: "dark-mode",
      before: null,
      after: { key: "dark-mode", name: "Dark mode", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
    },
    {
      resource: "targeting" as const,
      action: "update" as const,
      key: "dark-mode",
      environment: "production",
      before: { key: "production", enabled: false, defaultVariationKey: "on", offVariationKey: "off", prerequisites: [], rules: [] },
      after: { key: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", prerequisites: [], rules: [] }
    }
  ],
  changeRequests: [],
  pendingChangeRequests: [],
  fingerprint: "4e1f0c9a7b2d6e38"
}

// The first page of a project's flags, one per page (`?limit=1`): more follow after its key.
export const flagListPage: { readonly data: ReadonlyArray<FlagWithUsage>; readonly nextCursor: string | null } = {
  data: [flagWithUsage],
  nextCursor: "ZmxhZ3M6bmV3LWNoZWNrb3V0"
}
