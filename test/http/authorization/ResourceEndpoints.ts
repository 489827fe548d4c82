/** The matrix rows of the service routes, projects, environments, flags, segments, keys and webhooks. */
import { Messages } from "../../../src/domain/auth/Policy.js"
import { type Endpoint, EVERY_ENVIRONMENT, flagBody, forbidden, freshFlag, freshKey, freshSegment, freshWebhook, WEBHOOKS_OF_ALL } from "./Endpoint.js"

export const RESOURCE_ENDPOINTS: ReadonlyArray<Endpoint> = [
  { name: "GET /health", kind: "service", success: 200, prepare: async () => ({ method: "GET", path: "/health" }) },
  { name: "GET /openapi.json", kind: "service", success: 200, prepare: async () => ({ method: "GET", path: "/openapi.json" }) },
  { name: "GET /docs", kind: "service", success: 200, prepare: async () => ({ method: "GET", path: "/docs" }) },
  { name: "GET /v1/projects", kind: "projects-list", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects" }) },
  {
    name: "POST /v1/projects",
    kind: "global",
    success: 201,
    prepare: async (_t, n) => ({ method: "POST", path: "/v1/projects", body: { id: `made-${n}`, name: "Made" } })
  },
  {
    name: "GET /v1/projects/{p}/environments",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/environments" })
  },
  {
    name: "POST /v1/projects/{p}/environments",
    kind: "management",
    needs: "manage",
    success: 201,
    // A new environment: one the key bound to production could neither read nor write.
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (_t, n) => ({ method: "POST", path: "/v1/projects/p1/environments", body: { key: `env-${n}`, name: "Env" } })
  },
  {
    name: "PATCH /v1/projects/{p}/environments/{e}",
    kind: "management",
    needs: "manage",
    success: 200,
    // Development's setting (kept "full": the evaluation rows read development's configuration with
    // client keys): the key bound to production may not change it.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async () => ({ method: "PATCH", path: "/v1/projects/p1/environments/development", body: { clientConfig: "full" } })
  },
  {
    name: "POST /v1/projects/{p}/environments/{e}/copy",
    kind: "management",
    needs: "write",
    success: 200,
    // Into production, but from development: the key bound to production may not read development.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async () => ({ method: "POST", path: "/v1/projects/p1/environments/production/copy", body: { from: "development" } })
  },
  {
    name: "POST /v1/projects/{p}/flags",
    kind: "management",
    needs: "write",
    success: 201,
    // A new flag has a configuration in every environment.
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (_t, n) => ({ method: "POST", path: "/v1/projects/p1/flags", body: flagBody(`created-${n}`) })
  },
  { name: "GET /v1/projects/{p}/flags", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/flags" }) },
  {
    name: "GET /v1/projects/{p}/flags/{f}",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async (t, n) => ({ method: "GET", path: `/v1/projects/p1/flags/${(await freshFlag(t, n, "get")).key}` })
  },
  {
    name: "GET /v1/projects/{p}/flags/{f}/targeting",
    kind: "management",
    needs: "read",
    success: 200,
    // Development's targeting: a key bound to production reads only its own.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({ method: "GET", path: `/v1/projects/p1/flags/${(await freshFlag(t, n, "get-targeting")).key}/targeting?environment=development` })
  },
  {
    name: "PATCH /v1/projects/{p}/flags/{f}",
    kind: "management",
    needs: "write",
    success: 200,
    prepare: async (t, n) => ({
      method: "PATCH",
      path: `/v1/projects/p1/flags/${(await freshFlag(t, n, "patch")).key}`,
      body: { name: "Renamed" }
    })
  },
  {
    name: "PUT /v1/projects/{p}/flags/{f}/targeting",
    kind: "management",
    needs: "write",
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({
      method: "PUT",
      path: `/v1/projects/p1/flags/${(await freshFlag(t, n, "target")).key}/targeting`,
      body: { environment: "development", enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] }
    })
  },
  {
    name: "DELETE /v1/projects/{p}/flags/{f}",
    kind: "management",
    needs: "write",
    success: 204,
    // Deleting a flag removes every environment's configuration: no bound key.
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (t, n) => ({ method: "DELETE", path: `/v1/projects/p1/flags/${(await freshFlag(t, n, "delete")).key}` })
  },
  {
    name: "POST /v1/projects/{p}/segments",
    kind: "management",
    needs: "write",
    success: 201,
    // A segment may be used by every environment's rules.
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (_t, n) => ({ method: "POST", path: "/v1/projects/p1/segments", body: { key: `seg-${n}`, name: "S", conditions: [] } })
  },
  { name: "GET /v1/projects/{p}/segments", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/segments" }) },
  {
    name: "GET /v1/projects/{p}/segments/{s}",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async (t, n) => ({ method: "GET", path: `/v1/projects/p1/segments/${(await freshSegment(t, n, "sget")).key}` })
  },
  {
    name: "PATCH /v1/projects/{p}/segments/{s}",
    kind: "management",
    needs: "write",
    success: 200,
    // A segment may be used by every environment's rules: a bound key neither changes nor deletes one.
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (t, n) => ({
      method: "PATCH",
      path: `/v1/projects/p1/segments/${(await freshSegment(t, n, "spatch")).key}`,
      body: { name: "Renamed" }
    })
  },
  {
    name: "DELETE /v1/projects/{p}/segments/{s}",
    kind: "management",
    needs: "write",
    success: 204,
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (t, n) => ({ method: "DELETE", path: `/v1/projects/p1/segments/${(await freshSegment(t, n, "sdel")).key}` })
  },
  {
    name: "POST /v1/projects/{p}/webhooks",
    kind: "management",
    needs: "manage",
    success: 201,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async () => ({
      method: "POST",
      path: "/v1/projects/p1/webhooks",
      body: { url: "https://hooks.example.com/x", events: ["flag.updated"] }
    })
  },
  {
    name: "GET /v1/projects/{p}/webhooks",
    kind: "management",
    needs: "manage",
    success: 200,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/webhooks" })
  },
  {
    name: "GET /v1/projects/{p}/webhooks/{w}",
    kind: "management",
    needs: "manage",
    success: 200,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async (t) => ({ method: "GET", path: `/v1/projects/p1/webhooks/${(await freshWebhook(t)).id}` })
  },
  {
    name: "PATCH /v1/projects/{p}/webhooks/{w}",
    kind: "management",
    needs: "manage",
    success: 200,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async (t) => ({ method: "PATCH", path: `/v1/projects/p1/webhooks/${(await freshWebhook(t)).id}`, body: { enabled: false } })
  },
  {
    name: "DELETE /v1/projects/{p}/webhooks/{w}",
    kind: "management",
    needs: "manage",
    success: 204,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async (t) => ({ method: "DELETE", path: `/v1/projects/p1/webhooks/${(await freshWebhook(t)).id}` })
  },
  {
    name: "GET /v1/projects/{p}/webhooks/{w}/deliveries",
    kind: "management",
    needs: "manage",
    success: 200,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async (t) => ({ method: "GET", path: `/v1/projects/p1/webhooks/${(await freshWebhook(t)).id}/deliveries` })
  },
  {
    // No delivery exists: an authorized caller reaches the service and gets its 404.
    name: "POST /v1/projects/{p}/webhooks/{w}/deliveries/{d}/redeliver",
    kind: "management",
    needs: "manage",
    success: 404,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async (t) => ({ method: "POST", path: `/v1/projects/p1/webhooks/${(await freshWebhook(t)).id}/deliveries/none/redeliver` })
  },
  { name: "GET /v1/projects/{p}/keys", kind: "management", needs: "manage", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/keys" }) },
  {
    name: "POST /v1/projects/{p}/keys",
    kind: "management",
    needs: "manage",
    success: 201,
    boundServer: forbidden(Messages.keyWiderThanCaller),
    prepare: async (_t, n) => ({ method: "POST", path: "/v1/projects/p1/keys", body: { type: "client", name: `made-${n}` } })
  },
  {
    name: "DELETE /v1/projects/{p}/keys/{k}",
    kind: "management",
    needs: "manage",
    success: 204,
    // The key revoked here is unbound: wider than a production-bound caller.
    boundServer: forbidden(Messages.revokeWiderThanCaller),
    prepare: async (t, n) => ({ method: "DELETE", path: `/v1/projects/p1/keys/${(await freshKey(t, n)).id}` })
  },
]
