/**
 * People for the HTTP tests: users with passwords and roles made through the use cases, their
 * sessions started through `Sessions`, and requests sent with a session cookie (and, for the
 * unsafe methods, the `Origin` of the server, as a browser on the dashboard sends it).
 */
import { Effect } from "effect"
import type * as StorageLayer from "../../adapters/app/Composition.js"
import type { Membership, Role } from "../../src/domain/people/Role.js"
import { Members } from "../../src/services/people/Members.js"
import { Sessions } from "../../src/services/people/Sessions.js"
import { Users } from "../../src/services/people/Users.js"
import { type Reply, request } from "./fixtures.js"

export const PASSWORD = "correct horse battery staple"

export interface Person {
  readonly id: string
  readonly email: string
  /** The `Cookie` header of a session of this person. */
  readonly cookie: string
}

/** A user with a password and memberships, and a session of theirs. */
export const makePerson = (email: string, options: { readonly admin?: boolean; readonly projects?: ReadonlyArray<Membership> } = {}) =>
  Effect.gen(function* () {
    const users = yield* Users
    const sessions = yield* Sessions
    const user = yield* users.create({ email, password: PASSWORD, admin: options.admin ?? false, projects: options.projects ?? [] })
    const session = yield* sessions.start(user.id)
    return { id: user.id, email: user.email, cookie: `flagport_session=${session.token}` } satisfies Person
  })

/**
 * Gives `userId` `role` in `projectId` as the operator (the CLI, an Effect host): the tests' own
 * hand, since no API key may change a member (people are managed by people).
 */
export const setRole = (projectId: string, userId: string, role: Role) => Effect.flatMap(Members, (members) => members.put(projectId, userId, role))

/** Removes `userId` from `projectId` as the operator (see `setRole`). */
export const removeMember = (projectId: string, userId: string) => Effect.flatMap(Members, (members) => members.remove(projectId, userId))

export interface People {
  readonly viewer: Person
  readonly editor: Person
  readonly projectAdmin: Person
  readonly globalAdmin: Person
  /** Admin of p2 only. */
  readonly otherAdmin: Person
  /** Viewer of p1 whose account was disabled after the session started. */
  readonly disabled: Person
}

/** The people of the authorization matrix (projects p1 and p2 must exist). */
export const seedPeople: Effect.Effect<People, unknown, StorageLayer.Storage> = Effect.gen(function* () {
  const disabled = yield* makePerson("disabled@example.com", { projects: [{ projectId: "p1", role: "viewer" }] })
  yield* (yield* Users).update(disabled.id, { disabled: true })
  return {
    viewer: yield* makePerson("viewer@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }),
    editor: yield* makePerson("editor@example.com", { projects: [{ projectId: "p1", role: "editor" }] }),
    projectAdmin: yield* makePerson("padmin@example.com", { projects: [{ projectId: "p1", role: "admin" }] }),
    globalAdmin: yield* makePerson("gadmin@example.com", { admin: true }),
    otherAdmin: yield* makePerson("other@example.com", { projects: [{ projectId: "p2", role: "admin" }] }),
    disabled
  }
})

/** A request as the dashboard's browser sends it: the cookie, and `Origin` (the server's own) on every method. */
export const asPerson = (base: string, cookie: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
  request(base, method, path, { headers: { cookie, origin: base, ...headers }, ...(body === undefined ? {} : { body }) })

/** The `Set-Cookie` line of a cookie whose name ends with `name` (the session's, the device's), or "". */
export const setCookieLine = (headers: Headers, name: string): string =>
  headers.getSetCookie().find((line) => line.split("=")[0]!.replace(/^__Host-/, "") === name) ?? ""

/** The session cookie (`name=value`) of a `Set-Cookie` answer. */
export const sessionCookieOf = (reply: Reply | { readonly headers: Headers }): string => setCookieLine(reply.headers, "flagport_session").split(";")[0]!

/** The device cookie (`name=value`) of a `Set-Cookie` answer (a password sign-in sets it beside the session's). */
export const deviceCookieOf = (reply: Reply | { readonly headers: Headers }): string => setCookieLine(reply.headers, "flagport_device").split(";")[0]!
