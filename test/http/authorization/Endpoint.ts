/**
 * What the authorization matrix (Matrix.ts) knows of an endpoint: what a route needs of a person,
 * what a request expects, the fresh resources a write needs, and the request and the use case call
 * that ask for the same thing (over HTTP, and directly).
 */
import { type Context, Effect } from "effect"
import type * as StorageLayer from "../../../adapters/app/Composition.js"
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
  /**
   * Makes a request (fresh resources for writes); returns method, path and optional body, and the
   * call of the use case its handler makes with the same input (every route a use case decides
   * has one: the use-case run holds it to the same expectations).
   */
  readonly prepare: (t: TestServer, n: number) => Promise<Prepared>
}

/** A use case's call, as its handler makes it (the caller is the run's to provide), among a serving process's services. */
export type Call = Effect.Effect<unknown, unknown, StorageLayer.Services>

export interface Prepared {
  readonly method: string
  readonly path: string
  readonly body?: unknown
  /** Headers beyond the caller's (a body that is not JSON names its media type). */
  readonly headers?: Record<string, string>
  readonly call?: Call
}

/** The call of `method` of the use case `tag`. */
export const use = <I, S, A, E>(tag: Context.Tag<I, S>, method: (service: S) => Effect.Effect<A, E, StorageLayer.Services>): Effect.Effect<A, E, I | StorageLayer.Services> =>
  Effect.flatMap(tag, method)

export const flagBody = (key: string) => ({
  key,
  type: "string" as const,
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
export const freshChangeRequest = async (t: TestServer, n: number): Promise<{ readonly id: string; readonly path: string }> => {
  const flag = await freshFlag(t, n, "proposed")
  const targeting = { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] }
  const opened = await t.run(
    Effect.flatMap(ChangeRequests, (crs) => crs.open("p1", { title: "Proposed", environment: "development", changes: [{ flagKey: flag.key, targeting }] })).pipe(
      Effect.provideService(CurrentActor, { type: "cli" })
    )
  )
  return { id: opened.id, path: `/v1/projects/p1/change-requests/${opened.id}` }
}

/** A write of what every environment serves (Policy.authorizeAllEnvironmentsWrite): no key bound to one. */
export const EVERY_ENVIRONMENT = forbidden(Messages.boundKeyWritesEveryEnvironment("production"))

/** A webhook receives every environment's changes: a key bound to one environment has none. */
export const WEBHOOKS_OF_ALL = forbidden(Messages.environmentMismatch)

export const notFound = (message: string) => ({ status: 404, code: "not_found", message })
