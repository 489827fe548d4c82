/**
 * What the authorization matrix (../authorization.ts) knows of an endpoint: what a route needs of
 * a person, what a request expects, and the fresh resources a write needs.
 */
import { Effect } from "effect"
import { CurrentActor } from "../../../src/domain/audit/Actor.js"
import { Messages } from "../../../src/domain/auth/Policy.js"
import { ChangeRequests } from "../../../src/services/changes/ChangeRequests.js"
import { request, type TestServer } from "../fixtures.js"

export type PersonCredential = "viewer" | "editor" | "projectAdmin" | "globalAdmin" | "noSession" | "disabled" | "otherAdmin"

export type Expected = number | { readonly status: number; readonly code: string; readonly message: string }

export const unauthorized = (message: string) => ({ status: 401, code: "unauthorized", message })
export const forbidden = (message: string) => ({ status: 403, code: "forbidden", message })

/** What a management route needs of a person in its project, per the contract's roles table. */
export type Needs = "read" | "write" | "propose" | "approve" | "manage"
export const ROLE_MAY: Record<"viewer" | "editor" | "projectAdmin", ReadonlyArray<Needs>> = {
  viewer: ["read"],
  editor: ["read", "write", "propose"],
  projectAdmin: ["read", "write", "propose", "approve", "manage"]
}

export interface Endpoint {
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
  /**
   * What every server key that reaches p1 gets instead of `success` (the global key, p1's, the one
   * bound to production): what only people may do (domain/auth/Permissions.ts, `peopleOnly`).
   */
  readonly forKeys?: Expected
  /** Makes a request (fresh resources for writes); returns method, path and optional body. */
  readonly prepare: (t: TestServer, n: number) => Promise<{ method: string; path: string; body?: unknown }>
}

export const flagBody = (key: string) => ({
  key,
  type: "string",
  variations: [
    { key: "a", value: "A" },
    { key: "b", value: "B" }
  ]
})
export const admin = (t: TestServer) => ({ authorization: `Bearer ${t.keys.global}` })
export const create = async (t: TestServer, path: string, body: unknown) => {
  const reply = await request(t.url, "POST", path, { headers: admin(t), body })
  if (reply.status !== 201) throw new Error(`setup failed: POST ${path} -> ${reply.status} ${reply.text}`)
  return reply.body as { id: string; key: string }
}
export const freshFlag = (t: TestServer, n: number, label: string) => create(t, "/v1/projects/p1/flags", flagBody(`${label}-${n}`))
export const freshSegment = (t: TestServer, n: number, label: string) =>
  create(t, "/v1/projects/p1/segments", { key: `${label}-${n}`, name: "S", conditions: [] })
export const freshKey = (t: TestServer, n: number) => create(t, "/v1/projects/p1/keys", { type: "server", name: `to-revoke-${n}` })
export const freshUser = async (t: TestServer, n: number, label: string) =>
  ((await create(t, "/v1/users", { email: `${label}-${n}@example.com` })) as unknown as { user: { id: string } }).user
export const freshWebhook = (t: TestServer) =>
  create(t, "/v1/projects/p1/webhooks", { url: "https://hooks.example.com/flagport", events: ["flag.created"] })

/**
 * A change request to development opened by the operator (`cli`, as the CLI or an Effect host):
 * no key of the matrix is its author, so each may approve or reject it as a project admin would.
 */
export const freshChangeRequest = async (t: TestServer, n: number) => {
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
export const EVERY_ENVIRONMENT = forbidden(Messages.boundKeyWritesEveryEnvironment("production"))

/** A webhook receives every environment's changes: a key bound to one environment has none. */
export const WEBHOOKS_OF_ALL = forbidden(Messages.environmentMismatch)

export const notFound = (message: string) => ({ status: 404, code: "not_found", message })
