/**
 * The authorization matrix, shared by the memory/SQLite and PostgreSQL runs: every endpoint x
 * (no key, malformed header, unknown key, client key, scoped key of the project, scoped key of
 * another project, global key, bound keys) and x the people (viewer, editor and admin of the
 * project, global admin, no session, a disabled user, another project's admin, each by session
 * cookie), through a real server over HTTP. What each role may do is written here from the
 * contract's roles table, not read from the server's route table.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { CurrentActor } from "../../src/domain/audit/Actor.js"
import { PeopleMessages } from "../../src/domain/auth/Access.js"
import { ChangeRequestMessages } from "../../src/domain/changes/ChangeRequestRules.js"
import { ChangeRequests } from "../../src/services/ChangeRequests.js"
import { Messages } from "../../src/domain/auth/Policy.js"
import type * as StorageLayer from "../../adapters/app/Composition.js"
import { type Reply, request, startServer, type Keys, type TestServer } from "./fixtures.js"
import { type People, seedPeople } from "./people.js"

type Credential =
  | "none"
  | "malformed"
  | "unknown"
  | "client"
  | "scopedOwn"
  | "scopedOther"
  | "global"
  /** Client key of p1 bound to development (the environment every evaluation row names). */
  | "boundClient"
  /** Client and server keys of p1 bound to production. */
  | "boundClientOther"
  | "boundServerOther"
  | PersonCredential

/** A person's session cookie: a role in p1, a global admin, a session that is no (longer a) session, another project's admin. */
type PersonCredential = "viewer" | "editor" | "projectAdmin" | "globalAdmin" | "noSession" | "disabled" | "otherAdmin"
const PERSONS: ReadonlyArray<PersonCredential> = ["viewer", "editor", "projectAdmin", "globalAdmin", "noSession", "disabled", "otherAdmin"]
const isPerson = (credential: Credential): credential is PersonCredential => (PERSONS as ReadonlyArray<string>).includes(credential)

const KEY_CREDENTIALS: ReadonlyArray<Credential> = [
  "none",
  "malformed",
  "unknown",
  "client",
  "scopedOwn",
  "scopedOther",
  "global",
  "boundClient",
  "boundClientOther",
  "boundServerOther"
]
const CREDENTIALS: ReadonlyArray<Credential> = [...KEY_CREDENTIALS, ...PERSONS]

/** A cookie of the right shape that names no session. */
const NO_SESSION = `flagport_session=${"n".repeat(43)}`

const headersFor = (credential: Credential, keys: Keys, people: People, base: string): Record<string, string> => {
  // A person's browser on the dashboard: the cookie, and the server's own Origin (CSRF is tested in SignIn.test.ts).
  if (isPerson(credential)) return { cookie: credential === "noSession" ? NO_SESSION : people[credential].cookie, origin: base }
  switch (credential) {
    case "none":
      return {}
    case "malformed":
      return { authorization: `Token ${keys.global}` }
    case "unknown":
      return { authorization: "Bearer srv_this-key-does-not-exist" }
    case "client":
      return { authorization: `Bearer ${keys.client}` }
    case "scopedOwn":
      return { authorization: `Bearer ${keys.scoped}` }
    case "scopedOther":
      return { authorization: `Bearer ${keys.otherScoped}` }
    case "global":
      return { authorization: `Bearer ${keys.global}` }
    case "boundClient":
      return { authorization: `Bearer ${keys.boundClient}` }
    case "boundClientOther":
      return { authorization: `Bearer ${keys.boundClientOther}` }
    case "boundServerOther":
      return { authorization: `Bearer ${keys.boundServerOther}` }
  }
}

type Expected = number | { readonly status: number; readonly code: string; readonly message: string }

const unauthorized = (message: string) => ({ status: 401, code: "unauthorized", message })
const forbidden = (message: string) => ({ status: 403, code: "forbidden", message })

/** What a management route needs of a person in its project, per the contract's roles table. */
type Needs = "read" | "write" | "propose" | "approve" | "manage"
const ROLE_MAY: Record<"viewer" | "editor" | "projectAdmin", ReadonlyArray<Needs>> = {
  viewer: ["read"],
  editor: ["read", "write", "propose"],
  projectAdmin: ["read", "write", "propose", "approve", "manage"]
}

interface Endpoint {
  readonly name: string
  /**
   * `global`: global server keys and global admins only (projects, users); `me`: a session only;
   * `management`: a route of project p1, needing `needs` of a person.
   */
  readonly kind: "management" | "evaluation" | "service" | "projects-list" | "global" | "me"
  readonly needs?: Needs
  readonly success: number
  /** What a person gets instead, past the route, when the use case decides otherwise (change requests: the author, the approvers). */
  readonly forPerson?: Partial<Record<PersonCredential, Expected>>
  /**
   * What a server key bound to production gets instead of `success` (a write of development's
   * configuration, a key wider than itself): the binding limits what it writes, not only what it evaluates.
   */
  readonly boundServer?: Expected
  /** Makes a request (fresh resources for writes); returns method, path and optional body. */
  readonly prepare: (t: TestServer, n: number) => Promise<{ method: string; path: string; body?: unknown }>
}

const flagBody = (key: string) => ({
  key,
  type: "string",
  variations: [
    { key: "a", value: "A" },
    { key: "b", value: "B" }
  ]
})
const admin = (t: TestServer) => ({ authorization: `Bearer ${t.keys.global}` })
const create = async (t: TestServer, path: string, body: unknown) => {
  const reply = await request(t.url, "POST", path, { headers: admin(t), body })
  if (reply.status !== 201) throw new Error(`setup failed: POST ${path} -> ${reply.status} ${reply.text}`)
  return reply.body as { id: string; key: string }
}
const freshFlag = (t: TestServer, n: number, label: string) => create(t, "/v1/projects/p1/flags", flagBody(`${label}-${n}`))
const freshSegment = (t: TestServer, n: number, label: string) =>
  create(t, "/v1/projects/p1/segments", { key: `${label}-${n}`, name: "S", conditions: [] })
const freshKey = (t: TestServer, n: number) => create(t, "/v1/projects/p1/keys", { type: "server", name: `to-revoke-${n}` })
const freshUser = async (t: TestServer, n: number, label: string) =>
  ((await create(t, "/v1/users", { email: `${label}-${n}@example.com` })) as unknown as { user: { id: string } }).user
const freshWebhook = (t: TestServer) =>
  create(t, "/v1/projects/p1/webhooks", { url: "https://hooks.example.com/flagport", events: ["flag.created"] })

/**
 * A change request to development opened by the operator (`cli`, as the CLI or an Effect host):
 * no key of the matrix is its author, so each may approve or reject it as a project admin would.
 */
const freshChangeRequest = async (t: TestServer, n: number) => {
  const flag = await freshFlag(t, n, "proposed")
  const targeting = { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] }
  const opened = await t.run(
    Effect.flatMap(ChangeRequests, (crs) => crs.open("p1", { title: "Proposed", environment: "development", changes: [{ flagKey: flag.key, targeting }] })).pipe(
      Effect.provideService(CurrentActor, { type: "cli" })
    )
  )
  return `/v1/projects/p1/change-requests/${opened.id}`
}

/** A write of what every environment serves (Policy.authorizeAllEnvironmentsWrite): no key bound to one. */
const EVERY_ENVIRONMENT = forbidden(Messages.boundKeyWritesEveryEnvironment("production"))

/** A webhook receives every environment's changes: a key bound to one environment has none. */
const WEBHOOKS_OF_ALL = forbidden(Messages.environmentMismatch)

export const ENDPOINTS: ReadonlyArray<Endpoint> = [
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
  { name: "GET /v1/projects/{p}/audit", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/audit" }) },
  { name: "GET /v1/projects/{p}/events", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/events" }) },
  {
    name: "POST /v1/projects/{p}/flags/{f}/schedules",
    kind: "management",
    needs: "write",
    success: 201,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({
      method: "POST",
      path: `/v1/projects/p1/flags/${(await freshFlag(t, n, "schedule")).key}/schedules`,
      body: { environment: "development", at: "2999-01-01T09:00:00Z", targeting: { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] } }
    })
  },
  {
    name: "GET /v1/projects/{p}/flags/{f}/schedules",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async (t, n) => ({ method: "GET", path: `/v1/projects/p1/flags/${(await freshFlag(t, n, "schedules")).key}/schedules` })
  },
  {
    name: "GET /v1/projects/{p}/schedules",
    kind: "management",
    needs: "read",
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/schedules?environment=development" })
  },
  {
    name: "DELETE /v1/projects/{p}/flags/{f}/schedules/{s}",
    kind: "management",
    needs: "write",
    success: 204,
    // A development schedule: the key bound to production may not cancel it.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => {
      const flag = await freshFlag(t, n, "unschedule")
      const schedule = await create(t, `/v1/projects/p1/flags/${flag.key}/schedules`, {
        environment: "development",
        at: "2999-01-01T09:00:00Z",
        targeting: { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] }
      })
      return { method: "DELETE", path: `/v1/projects/p1/flags/${flag.key}/schedules/${schedule.id}` }
    }
  },
  {
    name: "POST /v1/projects/{p}/change-requests",
    kind: "management",
    needs: "propose",
    success: 201,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({
      method: "POST",
      path: "/v1/projects/p1/change-requests",
      body: { title: "T", environment: "development", changes: [{ flagKey: (await freshFlag(t, n, "to-propose")).key, targeting: { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] } }] }
    })
  },
  { name: "GET /v1/projects/{p}/change-requests", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/change-requests?status=open" }) },
  {
    name: "GET /v1/projects/{p}/change-requests/{id}",
    kind: "management",
    needs: "read",
    success: 200,
    // A request to development: the key bound to production reads only its own environment's.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({ method: "GET", path: await freshChangeRequest(t, n) })
  },
  {
    name: "PUT /v1/projects/{p}/change-requests/{id}",
    kind: "management",
    needs: "propose",
    // The route lets the key through; the use case refuses: only the author updates (the operator opened it).
    success: 403,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({ method: "PUT", path: await freshChangeRequest(t, n), body: { changes: [{ flagKey: `proposed-${n}`, targeting: { enabled: false, defaultVariationKey: "a", offVariationKey: "b", rules: [] } }] } })
  },
  {
    name: "POST /v1/projects/{p}/change-requests/{id}/approve",
    kind: "management",
    needs: "approve",
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({ method: "POST", path: `${await freshChangeRequest(t, n)}/approve`, body: {} })
  },
  {
    name: "POST /v1/projects/{p}/change-requests/{id}/reject",
    kind: "management",
    needs: "approve",
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({ method: "POST", path: `${await freshChangeRequest(t, n)}/reject`, body: { comment: "No" } })
  },
  {
    name: "POST /v1/projects/{p}/change-requests/{id}/cancel",
    kind: "management",
    needs: "propose",
    // An editor who is not the author may not cancel it (the author or an admin).
    forPerson: { editor: forbidden(ChangeRequestMessages.cancelRefused) },
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({ method: "POST", path: `${await freshChangeRequest(t, n)}/cancel` })
  },
  {
    name: "POST /v1/projects/{p}/change-requests/{id}/apply",
    kind: "management",
    needs: "propose",
    // Past the route, the use case's answer: not approved yet.
    success: 409,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({ method: "POST", path: `${await freshChangeRequest(t, n)}/apply` })
  },
  {
    name: "POST /v1/evaluate",
    kind: "evaluation",
    success: 200,
    prepare: async () => ({ method: "POST", path: "/v1/evaluate", body: { environment: "development", context: { key: "u" }, projectId: "p1" } })
  },
  {
    name: "GET /v1/flags/{f}/eval",
    kind: "evaluation",
    success: 200,
    prepare: async () => ({ method: "GET", path: "/v1/flags/matrix-flag/eval?environment=development&key=u&projectId=p1" })
  },
  {
    name: "POST /v1/explain",
    kind: "evaluation",
    success: 200,
    prepare: async () => ({ method: "POST", path: "/v1/explain", body: { environment: "development", context: { key: "u" }, flagKey: "matrix-flag", projectId: "p1" } })
  },
  {
    name: "GET /v1/config",
    kind: "evaluation",
    success: 200,
    prepare: async () => ({ method: "GET", path: "/v1/config?environment=development&projectId=p1" })
  },
  {
    name: "GET /v1/stream",
    kind: "evaluation",
    success: 200,
    prepare: async () => ({ method: "GET", path: "/v1/stream?environment=development&projectId=p1" })
  },
  // Evaluation insights.
  {
    name: "GET /v1/projects/{p}/flags/{f}/insights",
    kind: "management",
    needs: "read",
    success: 200,
    // Development's evaluations: the key bound to production reads only its own.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/flags/matrix-flag/insights?environment=development" })
  },
  {
    name: "POST /v1/insights",
    kind: "evaluation",
    success: 202,
    prepare: async () => ({
      method: "POST",
      path: "/v1/insights",
      body: {
        projectId: "p1",
        environment: "development",
        // A recent window: reports about hours older than 48 h are refused.
        from: new Date(Date.now() - 60_000).toISOString(),
        to: new Date().toISOString(),
        counts: [{ flagKey: "matrix-flag", variationKey: "a", count: 1 }]
      }
    })
  },
  // Typed code generation.
  {
    name: "GET /v1/projects/{p}/codegen/typescript",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/codegen/typescript" })
  },
  // Flags as code. The apply's file adds a fresh flag and turns it on in development: write, and
  // a key bound to production may not write development's targeting. (What an environment change
  // needs, manage, is tested in test/ascode/Http.test.ts.)
  {
    name: "GET /v1/projects/{p}/export",
    kind: "management",
    needs: "read",
    success: 200,
    // The file holds every environment: no bound key.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/export" })
  },
  {
    name: "POST /v1/projects/{p}/apply",
    kind: "management",
    needs: "write",
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (_t, n) => ({
      method: "POST",
      path: "/v1/projects/p1/apply",
      body: {
        project: { id: "p1" },
        flags: [{ ...flagBody(`applied-${n}`), environments: [{ key: "development", enabled: true, defaultVariationKey: "a", offVariationKey: "b" }] }]
      }
    })
  },
  { name: "GET /schemas/project-file.json", kind: "service", success: 200, prepare: async () => ({ method: "GET", path: "/schemas/project-file.json" }) },
  // People.
  { name: "GET /v1/auth/providers", kind: "service", success: 200, prepare: async () => ({ method: "GET", path: "/v1/auth/providers" }) },
  { name: "GET /v1/me", kind: "me", success: 200, prepare: async () => ({ method: "GET", path: "/v1/me" }) },
  { name: "GET /v1/users", kind: "global", success: 200, prepare: async () => ({ method: "GET", path: "/v1/users" }) },
  {
    name: "POST /v1/users",
    kind: "global",
    success: 201,
    prepare: async (_t, n) => ({ method: "POST", path: "/v1/users", body: { email: `invited-${n}@example.com` } })
  },
  {
    name: "PATCH /v1/users/{id}",
    kind: "global",
    success: 200,
    prepare: async (t, n) => ({ method: "PATCH", path: `/v1/users/${(await freshUser(t, n, "patched")).id}`, body: { name: "Renamed" } })
  },
  {
    name: "POST /v1/users/{id}/reset-password",
    kind: "global",
    success: 200,
    prepare: async (t, n) => ({ method: "POST", path: `/v1/users/${(await freshUser(t, n, "reset")).id}/reset-password` })
  },
  {
    name: "GET /v1/projects/{p}/members",
    kind: "management",
    needs: "manage",
    success: 200,
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/members" })
  },
  {
    name: "PUT /v1/projects/{p}/members/{u}",
    kind: "management",
    needs: "manage",
    success: 200,
    prepare: async (t, n) => ({ method: "PUT", path: `/v1/projects/p1/members/${(await freshUser(t, n, "member")).id}`, body: { role: "viewer" } })
  },
  {
    name: "DELETE /v1/projects/{p}/members/{u}",
    kind: "management",
    needs: "manage",
    success: 204,
    prepare: async (t, n) => {
      const user = await freshUser(t, n, "unmember")
      const put = await request(t.url, "PUT", `/v1/projects/p1/members/${user.id}`, { headers: admin(t), body: { role: "viewer" } })
      if (put.status !== 200) throw new Error(`setup failed: PUT member -> ${put.status} ${put.text}`)
      return { method: "DELETE", path: `/v1/projects/p1/members/${user.id}` }
    }
  }
]

/**
 * `request`, except that a successful `GET /v1/stream` (or `.../events`) never ends: its status and headers are
 * enough, so the stream is dropped once they arrive (its body is never read).
 */
const requestOrStream = async (...args: Parameters<typeof request>): Promise<Reply> => {
  const [base, method, path, options = {}] = args
  if (!path.startsWith("/v1/stream") && !/^\/v1\/projects\/[^/]+\/events$/.test(path)) return request(...args)
  const headers: Record<string, string> = { ...options.headers }
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
  const controller = new AbortController()
  const response = await fetch(`${base}${path}`, { method, headers, signal: controller.signal })
  if (response.status === 200) {
    controller.abort()
    return { status: 200, headers: response.headers, text: "", body: undefined }
  }
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) as unknown }
}

const notFound = (message: string) => ({ status: 404, code: "not_found", message })

/**
 * A person by session cookie: the evaluation side does not know cookies (the 401 of a missing
 * key); a cookie that is no session, or a disabled user's, is 401; a global admin may do
 * everything; a member what their role in p1 allows (403 beyond it); another project's admin
 * finds no p1 at all (404, as for a project that does not exist).
 */
const personExpected = (endpoint: Endpoint, credential: PersonCredential): Expected => {
  if (endpoint.kind === "service") return endpoint.success
  if (endpoint.kind === "evaluation") return unauthorized(Messages.malformedHeader)
  if (credential === "noSession" || credential === "disabled") return unauthorized(PeopleMessages.sessionEnded)
  if (credential === "globalAdmin" || endpoint.kind === "me" || endpoint.kind === "projects-list") return endpoint.success
  if (endpoint.kind === "global") return forbidden(PeopleMessages.adminRequired)
  if (credential === "otherAdmin") return notFound("Project 'p1' not found")
  const decided = endpoint.forPerson?.[credential]
  if (decided !== undefined && ROLE_MAY[credential as keyof typeof ROLE_MAY]?.includes(endpoint.needs!)) return decided
  return ROLE_MAY[credential].includes(endpoint.needs!) ? endpoint.success : forbidden(PeopleMessages.roleForbids)
}

const expectedFor = (endpoint: Endpoint, credential: Credential): Expected => {
  if (endpoint.kind === "service") return endpoint.success
  if (isPerson(credential)) return personExpected(endpoint, credential)
  // `/v1/me` is a person's: a key is no session.
  if (endpoint.kind === "me") return unauthorized(PeopleMessages.sessionRequired)
  switch (credential) {
    case "none":
    case "malformed":
      return unauthorized(Messages.malformedHeader)
    case "unknown":
      return unauthorized(Messages.invalidKey)
    case "client":
      return endpoint.kind === "evaluation" ? endpoint.success : forbidden(Messages.serverKeyRequired)
    case "scopedOwn":
      return endpoint.kind === "global" ? forbidden(Messages.projectMismatch) : endpoint.success
    case "scopedOther":
      return endpoint.kind === "projects-list" ? endpoint.success : forbidden(Messages.projectMismatch)
    case "global":
      return endpoint.success
    case "boundClient":
      return endpoint.kind === "evaluation" ? endpoint.success : forbidden(Messages.serverKeyRequired)
    case "boundClientOther":
      return endpoint.kind === "evaluation" ? forbidden(Messages.environmentMismatch) : forbidden(Messages.serverKeyRequired)
    case "boundServerOther":
      // Binding limits what a key evaluates and which environment's configuration it writes.
      if (endpoint.kind === "evaluation") return forbidden(Messages.environmentMismatch)
      return endpoint.kind === "global" ? forbidden(Messages.projectMismatch) : endpoint.boundServer ?? endpoint.success
  }
}

export const authorizationMatrix = (label: string, storage: () => Layer.Layer<StorageLayer.Storage, unknown>) =>
  describe(`authorization matrix (${label})`, () => {
    let t: TestServer
    let people: People
    beforeAll(async () => {
      // The matrix makes a webhook of p1 per case, more than the 20 a project may have by default.
      process.env.FLAGPORT_WEBHOOKS_PER_PROJECT = "1000"
      t = await startServer(storage()).finally(() => delete process.env.FLAGPORT_WEBHOOKS_PER_PROJECT)
      await create(t, "/v1/projects/p1/flags", flagBody("matrix-flag"))
      people = await t.run(seedPeople)
    })
    afterAll(async () => {
      await t?.close()
    })

    let counter = 0
    const rows = ENDPOINTS.flatMap((endpoint) => CREDENTIALS.map((credential) => [endpoint.name, credential, endpoint] as const))
    it.each(rows)("%s with %s", async (_name, credential, endpoint) => {
      const { body, method, path } = await endpoint.prepare(t, ++counter)
      const reply = await requestOrStream(t.url, method, path, { headers: headersFor(credential, t.keys, people, t.url), body })
      const expected = expectedFor(endpoint, credential)
      if (typeof expected === "number") {
        expect(reply.status, reply.text).toBe(expected)
      } else {
        expect({ status: reply.status, body: reply.body }).toEqual({
          status: expected.status,
          body: { error: { code: expected.code, message: expected.message } }
        })
      }
    })

    it("covers every operation of the API (OFREP below; sign-in, sign-out and setup in SignIn.test.ts)", async () => {
      const spec = (await request(t.url, "GET", "/openapi.json")).body as { paths: Record<string, Record<string, unknown>> }
      const shape = (route: string) => route.replace(/\{[^}]+\}/g, "{}")
      const declared = Object.entries(spec.paths).flatMap(([path, item]) => Object.keys(item).map((method) => shape(`${method.toUpperCase()} ${path}`)))
      const elsewhere = ["POST /ofrep/v1/evaluate/flags/{}", "POST /ofrep/v1/evaluate/flags", "POST /v1/auth/login", "POST /v1/auth/logout", "POST /v1/auth/setup"]
      const covered = new Set([...ENDPOINTS.map((e) => shape(e.name)), ...elsewhere])
      expect(declared.filter((route) => !covered.has(route))).toEqual([])
    })

    it("a member listing projects sees only theirs; a global admin sees every one", async () => {
      const listed = async (cookie: string) =>
        ((await request(t.url, "GET", "/v1/projects", { headers: { cookie } })).body as { data: Array<{ id: string }> }).data.map((p) => p.id)
      expect(await listed(people.viewer.cookie)).toEqual(["p1"])
      expect(await listed(people.otherAdmin.cookie)).toEqual(["p2"])
      expect(await listed(people.globalAdmin.cookie)).toEqual(expect.arrayContaining(["p1", "p2"]))
    })

    it("another project's admin gets for p1 exactly what a project that does not exist gets", async () => {
      const p1 = await request(t.url, "GET", "/v1/projects/p1/flags", { headers: { cookie: people.otherAdmin.cookie } })
      const none = await request(t.url, "GET", "/v1/projects/no-such-project/flags", { headers: { cookie: people.otherAdmin.cookie } })
      expect({ status: p1.status, body: p1.body }).toEqual({ status: none.status, body: { error: { code: "not_found", message: "Project 'p1' not found" } } })
      expect(none.body).toEqual({ error: { code: "not_found", message: "Project 'no-such-project' not found" } })
    })

    it("a scoped key listing projects sees only its own", async () => {
      const reply = await request(t.url, "GET", "/v1/projects", { key: t.keys.otherScoped })
      expect((reply.body as { data: Array<{ id: string }> }).data.map((p) => p.id)).toEqual(["p2"])
    })

    it("a revoked key is an unknown key", async () => {
      const reply = await request(t.url, "GET", "/v1/projects", { key: t.keys.revoked })
      expect(reply.body).toEqual({ error: { code: "unauthorized", message: Messages.invalidKey } })
    })

    it("a client key without a project is refused on evaluation and management", async () => {
      const evaluation = await request(t.url, "GET", "/v1/config?environment=development", { key: t.keys.unscopedClient })
      expect({ status: evaluation.status, body: evaluation.body }).toEqual({
        status: 403,
        body: { error: { code: "forbidden", message: Messages.clientKeyUnscoped } }
      })
      const management = await request(t.url, "GET", "/v1/projects/p1/flags", { key: t.keys.unscopedClient })
      expect(management.body).toEqual({ error: { code: "forbidden", message: Messages.serverKeyRequired } })
    })

    it("client and scoped keys evaluate their own project without projectId; a global key must name it", async () => {
      for (const key of [t.keys.client, t.keys.scoped]) {
        const reply = await request(t.url, "GET", "/v1/flags/matrix-flag/eval?environment=development&key=u", { key })
        expect(reply.status).toBe(200)
      }
      const missing = await request(t.url, "POST", "/v1/evaluate", {
        key: t.keys.global,
        body: { environment: "development", context: { key: "u" } }
      })
      expect(missing.status).toBe(400)
      expect((missing.body as { error: { code: string } }).error.code).toBe("invalid_request")
      const otherClient = await request(t.url, "GET", "/v1/config?environment=development&projectId=p1", { key: t.keys.otherClient })
      expect(otherClient.body).toEqual({ error: { code: "forbidden", message: Messages.projectMismatch } })
    })

    /** Each evaluation endpoint without naming an environment, as [name, method, path, body]. */
    const withoutEnvironment: ReadonlyArray<readonly [string, string, string, unknown]> = [
      ["POST /v1/evaluate", "POST", "/v1/evaluate", { context: { key: "u" } }],
      ["GET /v1/flags/{f}/eval", "GET", "/v1/flags/matrix-flag/eval?key=u", undefined],
      ["GET /v1/config", "GET", "/v1/config", undefined],
      ["GET /v1/stream", "GET", "/v1/stream", undefined],
      ["POST /v1/explain", "POST", "/v1/explain", { context: { key: "u" }, flagKey: "matrix-flag" }]
    ]

    it.each(withoutEnvironment)("%s: a bound key that names no environment is answered for its own", async (name, method, path, body) => {
      const reply = await requestOrStream(t.url, method, path, { key: t.keys.boundClientOther, body })
      expect(reply.status, reply.text).toBe(200)
      const production = await request(t.url, "GET", "/v1/config?environment=production", { key: t.keys.client })
      if (name === "GET /v1/config") expect(reply.headers.get("etag")).toBe(production.headers.get("etag"))
      if (name === "POST /v1/evaluate") expect((reply.body as { environment: string }).environment).toBe("production")
    })

    it.each(withoutEnvironment)("%s: an unbound key that names no environment gets the missing field's 400", async (_name, method, path, body) => {
      const reply = await requestOrStream(t.url, method, path, { key: t.keys.client, body })
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 400,
        body: { error: { code: "invalid_request", message: Messages.requestInvalid, details: [{ path: "environment", message: "is required (or use an API key bound to an environment)" }] } }
      })
    })

    it.each(withoutEnvironment)("%s: a key bound to an environment the project lacks gets 404", async (_name, method, path, body) => {
      const reply = await requestOrStream(t.url, method, path, { key: t.keys.boundToUnknown, body })
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 404,
        body: { error: { code: "not_found", message: "Environment 'staging' not found in project 'p1'" } }
      })
    })

    // OFREP: the same keys and policy, answered in OFREP's bodies. The project comes from the key
    // (a key of p2 sees only p2's flags), the environment from the Flagport-Environment header.
    const ofrepRoutes = [
      ["POST /ofrep/v1/evaluate/flags/{key}", "/ofrep/v1/evaluate/flags/matrix-flag", "matrix-flag"],
      ["POST /ofrep/v1/evaluate/flags", "/ofrep/v1/evaluate/flags", undefined]
    ] as const
    const ofrepExpected = (credential: Credential, flagKey: string | undefined): { status: number; errorCode?: string; errorDetails?: string } => {
      switch (credential) {
        case "none":
        case "malformed":
          return { status: 401, errorCode: "GENERAL", errorDetails: Messages.malformedHeader }
        case "unknown":
          return { status: 401, errorCode: "GENERAL", errorDetails: Messages.invalidKey }
        case "client":
        case "scopedOwn":
        case "boundClient":
          return { status: 200 }
        case "scopedOther":
          // p2 has no such flag: the key never reaches p1's.
          return flagKey === undefined ? { status: 200 } : { status: 404, errorCode: "FLAG_NOT_FOUND", errorDetails: "No flag 'matrix-flag' in environment 'development'" }
        case "global":
          return { status: 400, errorCode: "INVALID_CONTEXT", errorDetails: "A global server key names no project on OFREP routes: use a key scoped to the project" }
        case "boundClientOther":
        case "boundServerOther":
          return { status: 403, errorCode: "GENERAL", errorDetails: Messages.environmentMismatch }
        default:
          // A person's cookie is no credential for evaluation: OFREP is key-only.
          return { status: 401, errorCode: "GENERAL", errorDetails: Messages.malformedHeader }
      }
    }
    const ofrepRows = ofrepRoutes.flatMap(([name, path, flagKey]) => CREDENTIALS.map((credential) => [name, credential, path, flagKey] as const))
    it.each(ofrepRows)("%s with %s", async (_name, credential, path, flagKey) => {
      const reply = await request(t.url, "POST", path, {
        headers: { ...headersFor(credential, t.keys, people, t.url), "flagport-environment": "development" },
        body: { context: { targetingKey: "u" } }
      })
      const expected = ofrepExpected(credential, flagKey)
      expect(reply.status, reply.text).toBe(expected.status)
      if (expected.errorCode !== undefined) {
        expect(reply.body).toEqual({ ...(flagKey === undefined ? {} : { key: flagKey }), errorCode: expected.errorCode, errorDetails: expected.errorDetails })
      } else if (flagKey === undefined) {
        const keys = (reply.body as { flags: Array<{ key: string }> }).flags.map((f) => f.key)
        expect(keys.includes("matrix-flag")).toBe(credential !== "scopedOther")
      }
    })

    it("OFREP: a bound key needs no header; a client key without a project is refused; one bound to a missing environment is INVALID_CONTEXT", async () => {
      const bound = await request(t.url, "POST", "/ofrep/v1/evaluate/flags/matrix-flag", { key: t.keys.boundClientOther, body: {} })
      expect(bound.status, bound.text).toBe(200)
      const unscoped = await request(t.url, "POST", "/ofrep/v1/evaluate/flags", { key: t.keys.unscopedClient, body: {}, headers: { "flagport-environment": "development" } })
      expect({ status: unscoped.status, body: unscoped.body }).toEqual({ status: 403, body: { errorCode: "GENERAL", errorDetails: Messages.clientKeyUnscoped } })
      const unknown = await request(t.url, "POST", "/ofrep/v1/evaluate/flags", { key: t.keys.boundToUnknown, body: {} })
      expect({ status: unknown.status, body: unknown.body }).toEqual({
        status: 400,
        body: { errorCode: "INVALID_CONTEXT", errorDetails: "Environment 'staging' not found in project 'p1'" }
      })
      const unbound = await request(t.url, "POST", "/ofrep/v1/evaluate/flags", { key: t.keys.client, body: {} })
      expect({ status: unbound.status, body: unbound.body }).toEqual({
        status: 400,
        body: { errorCode: "INVALID_CONTEXT", errorDetails: "No environment: send the Flagport-Environment header, or use an API key bound to an environment" }
      })
    })

    it.each([
      ["lower-case scheme", (k: string) => `bearer ${k}`, 200],
      ["upper-case scheme", (k: string) => `BEARER ${k}`, 200],
      ["two spaces", (k: string) => `Bearer  ${k}`, 401],
      ["another scheme of the same length", (k: string) => `XXXXXX ${k}`, 401],
      ["only a prefix of the key", (k: string) => `Bearer ${k.slice(0, 12)}`, 401],
      ["the key and more", (k: string) => `Bearer ${k}x`, 401]
    ] as const)("Authorization header: %s", async (_name, header, status) => {
      for (const path of ["/v1/projects", "/v1/config?environment=development&projectId=p1"]) {
        const reply = await request(t.url, "GET", path, { headers: { authorization: header(t.keys.global) } })
        expect(reply.status, `${path}: ${reply.text}`).toBe(status)
      }
    })
  })
