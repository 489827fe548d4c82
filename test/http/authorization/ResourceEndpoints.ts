/** The matrix rows of the service routes, projects, environments, flags, segments, keys and webhooks. */
import { Messages } from "../../../src/domain/auth/Policy.js"
import { ApiKeys } from "../../../src/services/auth/ApiKeys.js"
import { Flags } from "../../../src/services/flags/Flags.js"
import { EnvironmentCopy } from "../../../src/services/projects/EnvironmentCopy.js"
import { Environments } from "../../../src/services/projects/Environments.js"
import { Projects } from "../../../src/services/projects/Projects.js"
import { Segments } from "../../../src/services/segments/Segments.js"
import { Webhooks } from "../../../src/services/webhooks/Webhooks.js"
import { type Endpoint, EVERY_ENVIRONMENT, flagBody, forbidden, freshFlag, freshKey, freshSegment, freshWebhook, use, WEBHOOKS_OF_ALL } from "./Endpoint.js"

export const RESOURCE_ENDPOINTS: ReadonlyArray<Endpoint> = [
  { name: "GET /health", kind: "service", success: 200, prepare: async () => ({ method: "GET", path: "/health" }) },
  { name: "GET /openapi.json", kind: "service", success: 200, prepare: async () => ({ method: "GET", path: "/openapi.json" }) },
  { name: "GET /docs", kind: "service", success: 200, prepare: async () => ({ method: "GET", path: "/docs" }) },
  { name: "GET /v1/projects", kind: "projects-list", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects", call: use(Projects, (p) => p.list()) }) },
  {
    name: "POST /v1/projects",
    kind: "global",
    success: 201,
    prepare: async (_t, n) => ({ method: "POST", path: "/v1/projects", body: { id: `made-${n}`, name: "Made" }, call: use(Projects, (p) => p.create({ id: `made-${n}`, name: "Made" })) })
  },
  {
    name: "GET /v1/projects/{p}/environments",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/environments", call: use(Environments, (e) => e.list("p1")) })
  },
  {
    name: "POST /v1/projects/{p}/environments",
    kind: "management",
    needs: "manage",
    success: 201,
    // A new environment: one the key bound to production could neither read nor write.
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (_t, n) => ({
      method: "POST",
      path: "/v1/projects/p1/environments",
      body: { key: `env-${n}`, name: "Env" },
      call: use(Environments, (e) => e.create("p1", { key: `env-${n}`, name: "Env" }))
    })
  },
  {
    name: "PATCH /v1/projects/{p}/environments/{e}",
    kind: "management",
    needs: "manage",
    success: 200,
    // Development's setting (kept "full": the evaluation rows read development's configuration with
    // client keys): the key bound to production may not change it.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async () => ({
      method: "PATCH",
      path: "/v1/projects/p1/environments/development",
      body: { clientConfig: "full" },
      call: use(Environments, (e) => e.update("p1", "development", { clientConfig: "full" }))
    })
  },
  {
    name: "POST /v1/projects/{p}/environments/{e}/copy",
    kind: "management",
    needs: "write",
    success: 200,
    // Into production, but from development: the key bound to production may not read development.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async () => ({
      method: "POST",
      path: "/v1/projects/p1/environments/production/copy",
      body: { from: "development" },
      call: use(EnvironmentCopy, (c) => c.copy("p1", "production", { from: "development" }))
    })
  },
  {
    name: "POST /v1/projects/{p}/flags",
    kind: "management",
    needs: "write",
    success: 201,
    // A new flag has a configuration in every environment.
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (_t, n) => ({ method: "POST", path: "/v1/projects/p1/flags", body: flagBody(`created-${n}`), call: use(Flags, (f) => f.create("p1", flagBody(`created-${n}`))) })
  },
  { name: "GET /v1/projects/{p}/flags", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/flags", call: use(Flags, (f) => f.page("p1", {})) }) },
  {
    name: "GET /v1/projects/{p}/flags/{f}",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async (t, n) => {
      const { key } = await freshFlag(t, n, "get")
      return { method: "GET", path: `/v1/projects/p1/flags/${key}`, call: use(Flags, (f) => f.get("p1", key)) }
    }
  },
  {
    name: "GET /v1/projects/{p}/flags/{f}/targeting",
    kind: "management",
    needs: "read",
    success: 200,
    // Development's targeting: a key bound to production reads only its own.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => {
      const { key } = await freshFlag(t, n, "get-targeting")
      return { method: "GET", path: `/v1/projects/p1/flags/${key}/targeting?environment=development`, call: use(Flags, (f) => f.targeting("p1", key, "development")) }
    }
  },
  {
    name: "PATCH /v1/projects/{p}/flags/{f}",
    kind: "management",
    needs: "write",
    success: 200,
    prepare: async (t, n) => {
      const { key } = await freshFlag(t, n, "patch")
      return { method: "PATCH", path: `/v1/projects/p1/flags/${key}`, body: { name: "Renamed" }, call: use(Flags, (f) => f.patch("p1", key, { name: "Renamed" })) }
    }
  },
  {
    name: "PUT /v1/projects/{p}/flags/{f}/targeting",
    kind: "management",
    needs: "write",
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => {
      const { key } = await freshFlag(t, n, "target")
      const body = { environment: "development", enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] }
      return { method: "PUT", path: `/v1/projects/p1/flags/${key}/targeting`, body, call: use(Flags, (f) => f.replaceTargeting("p1", key, body)) }
    }
  },
  {
    name: "DELETE /v1/projects/{p}/flags/{f}",
    kind: "management",
    needs: "write",
    success: 204,
    // Deleting a flag removes every environment's configuration: no bound key.
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (t, n) => {
      const { key } = await freshFlag(t, n, "delete")
      return { method: "DELETE", path: `/v1/projects/p1/flags/${key}`, call: use(Flags, (f) => f.remove("p1", key)) }
    }
  },
  {
    name: "POST /v1/projects/{p}/segments",
    kind: "management",
    needs: "write",
    success: 201,
    // A segment may be used by every environment's rules.
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (_t, n) => {
      const body = { key: `seg-${n}`, name: "S", conditions: [] }
      return { method: "POST", path: "/v1/projects/p1/segments", body, call: use(Segments, (s) => s.create("p1", body)) }
    }
  },
  { name: "GET /v1/projects/{p}/segments", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/segments", call: use(Segments, (s) => s.list("p1")) }) },
  {
    name: "GET /v1/projects/{p}/segments/{s}",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async (t, n) => {
      const { key } = await freshSegment(t, n, "sget")
      return { method: "GET", path: `/v1/projects/p1/segments/${key}`, call: use(Segments, (s) => s.get("p1", key)) }
    }
  },
  {
    name: "PATCH /v1/projects/{p}/segments/{s}",
    kind: "management",
    needs: "write",
    success: 200,
    // A segment may be used by every environment's rules: a bound key neither changes nor deletes one.
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (t, n) => {
      const { key } = await freshSegment(t, n, "spatch")
      return { method: "PATCH", path: `/v1/projects/p1/segments/${key}`, body: { name: "Renamed" }, call: use(Segments, (s) => s.patch("p1", key, { name: "Renamed" })) }
    }
  },
  {
    name: "DELETE /v1/projects/{p}/segments/{s}",
    kind: "management",
    needs: "write",
    success: 204,
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (t, n) => {
      const { key } = await freshSegment(t, n, "sdel")
      return { method: "DELETE", path: `/v1/projects/p1/segments/${key}`, call: use(Segments, (s) => s.remove("p1", key)) }
    }
  },
  {
    name: "POST /v1/projects/{p}/webhooks",
    kind: "management",
    needs: "manage",
    success: 201,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async () => {
      const body = { url: "https://hooks.example.com/x", events: ["flag.updated" as const] }
      return { method: "POST", path: "/v1/projects/p1/webhooks", body, call: use(Webhooks, (w) => w.create("p1", body)) }
    }
  },
  {
    name: "GET /v1/projects/{p}/webhooks",
    kind: "management",
    needs: "manage",
    success: 200,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/webhooks", call: use(Webhooks, (w) => w.list("p1")) })
  },
  {
    name: "GET /v1/projects/{p}/webhooks/{w}",
    kind: "management",
    needs: "manage",
    success: 200,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async (t) => {
      const { id } = await freshWebhook(t)
      return { method: "GET", path: `/v1/projects/p1/webhooks/${id}`, call: use(Webhooks, (w) => w.get("p1", id)) }
    }
  },
  {
    name: "PATCH /v1/projects/{p}/webhooks/{w}",
    kind: "management",
    needs: "manage",
    success: 200,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async (t) => {
      const { id } = await freshWebhook(t)
      return { method: "PATCH", path: `/v1/projects/p1/webhooks/${id}`, body: { enabled: false }, call: use(Webhooks, (w) => w.patch("p1", id, { enabled: false })) }
    }
  },
  {
    name: "DELETE /v1/projects/{p}/webhooks/{w}",
    kind: "management",
    needs: "manage",
    success: 204,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async (t) => {
      const { id } = await freshWebhook(t)
      return { method: "DELETE", path: `/v1/projects/p1/webhooks/${id}`, call: use(Webhooks, (w) => w.remove("p1", id)) }
    }
  },
  {
    name: "GET /v1/projects/{p}/webhooks/{w}/deliveries",
    kind: "management",
    needs: "manage",
    success: 200,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async (t) => {
      const { id } = await freshWebhook(t)
      return { method: "GET", path: `/v1/projects/p1/webhooks/${id}/deliveries`, call: use(Webhooks, (w) => w.deliveries("p1", id)) }
    }
  },
  {
    // No delivery exists: an authorized caller reaches the service and gets its 404.
    name: "POST /v1/projects/{p}/webhooks/{w}/deliveries/{d}/redeliver",
    kind: "management",
    needs: "manage",
    success: 404,
    boundServer: WEBHOOKS_OF_ALL,
    prepare: async (t) => {
      const { id } = await freshWebhook(t)
      return { method: "POST", path: `/v1/projects/p1/webhooks/${id}/deliveries/none/redeliver`, call: use(Webhooks, (w) => w.redeliver("p1", id, "none")) }
    }
  },
  { name: "GET /v1/projects/{p}/keys", kind: "management", needs: "manage", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/keys", call: use(ApiKeys, (k) => k.listInProject("p1")) }) },
  {
    name: "POST /v1/projects/{p}/keys",
    kind: "management",
    needs: "manage",
    success: 201,
    boundServer: forbidden(Messages.keyWiderThanCaller),
    prepare: async (_t, n) => ({
      method: "POST",
      path: "/v1/projects/p1/keys",
      body: { type: "client", name: `made-${n}` },
      call: use(ApiKeys, (k) => k.create({ type: "client", name: `made-${n}`, projectId: "p1", environment: null }))
    })
  },
  {
    name: "DELETE /v1/projects/{p}/keys/{k}",
    kind: "management",
    needs: "manage",
    success: 204,
    // The key revoked here is unbound: wider than a production-bound caller.
    boundServer: forbidden(Messages.revokeWiderThanCaller),
    prepare: async (t, n) => {
      const { id } = await freshKey(t, n)
      return { method: "DELETE", path: `/v1/projects/p1/keys/${id}`, call: use(ApiKeys, (k) => k.revokeInProject("p1", id)) }
    }
  },
]
