import { expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { AuditLog } from "../../src/ports/AuditLog.js"
import { Members } from "../../src/services/people/Members.js"
import { Sessions } from "../../src/services/people/Sessions.js"
import { Users } from "../../src/services/people/Users.js"
import { fresh, givenProject, PASSWORD } from "./fixtures.js"

layer(StorageLayer.memoryStorage)("Members", (it) => {
  it.effect("put adds or changes a role, remove takes it away; each audited in the project", () =>
    Effect.gen(function* () {
      const members = yield* Members
      const projectId = yield* givenProject
      const user = yield* (yield* Users).create({ email: `${fresh()}@example.com`, password: PASSWORD })
      expect(yield* members.put(projectId, user.id, "viewer")).toEqual({ user, role: "viewer" })
      expect(yield* members.put(projectId, user.id, "admin")).toEqual({ user, role: "admin" })
      expect(yield* members.list(projectId)).toEqual([{ user, role: "admin" }])
      yield* members.remove(projectId, user.id)
      expect(yield* members.list(projectId)).toEqual([])
      const entries = (yield* (yield* AuditLog).list(projectId, { resourceType: "member" }, 100)).map((r) => r.entry).reverse()
      expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
        ["member.put", null, { userId: user.id, email: user.email, role: "viewer" }],
        ["member.put", { userId: user.id, email: user.email, role: "viewer" }, { userId: user.id, email: user.email, role: "admin" }],
        ["member.removed", { userId: user.id, email: user.email, role: "admin" }, null]
      ])
    }))

  it.effect("404 for an unknown project, an unknown user, or removing someone who is not a member", () =>
    Effect.gen(function* () {
      const members = yield* Members
      const projectId = yield* givenProject
      const user = yield* (yield* Users).create({ email: `${fresh()}@example.com`, password: PASSWORD })
      expect(yield* Effect.flip(members.list("p-none"))).toMatchObject({ _tag: "ResourceNotFound", message: "Project 'p-none' not found" })
      expect(yield* Effect.flip(members.put("p-none", user.id, "viewer"))).toMatchObject({ _tag: "ResourceNotFound" })
      expect(yield* Effect.flip(members.put(projectId, "nobody", "viewer"))).toMatchObject({ message: "User 'nobody' not found" })
      expect(yield* Effect.flip(members.remove(projectId, user.id))).toMatchObject({
        message: `User '${user.id}' is not a member of project '${projectId}'`
      })
    }))

  it.effect("removing the last membership ends the person's sessions (not a global admin's)", () =>
    Effect.gen(function* () {
      const members = yield* Members
      const sessions = yield* Sessions
      const users = yield* Users
      const p1 = yield* givenProject
      const p2 = yield* givenProject
      const user = yield* users.create({ email: `${fresh()}@example.com`, password: PASSWORD, projects: [{ projectId: p1, role: "viewer" }, { projectId: p2, role: "editor" }] })
      const admin = yield* users.create({ email: `${fresh()}@example.com`, password: PASSWORD, admin: true, projects: [{ projectId: p1, role: "admin" }] })
      const session = yield* sessions.start(user.id)
      const adminSession = yield* sessions.start(admin.id)
      yield* members.remove(p1, user.id)
      expect(Option.map(yield* sessions.authenticate(session.token), (m) => m.memberships)).toEqual(Option.some([{ projectId: p2, role: "editor" }]))
      yield* members.remove(p2, user.id)
      expect(yield* sessions.authenticate(session.token)).toEqual(Option.none())
      yield* members.remove(p1, admin.id)
      expect(Option.isSome(yield* sessions.authenticate(adminSession.token))).toBe(true)
    }))
})
