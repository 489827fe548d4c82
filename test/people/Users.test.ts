import { expect, layer } from "@effect/vitest"
import { Effect, Option, TestClock } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { CurrentActor } from "../../src/domain/audit/Actor.js"
import { SETUP_TOKEN_LIFETIME_MS } from "../../src/domain/people/SetupLink.js"
import { AuditLog } from "../../src/ports/AuditLog.js"
import { UserRepository } from "../../src/ports/UserRepository.js"
import { Sessions } from "../../src/services/people/Sessions.js"
import { SignIn } from "../../src/services/people/SignIn.js"
import { Users } from "../../src/services/people/Users.js"
import { fresh, givenProject, PASSWORD } from "./fixtures.js"

const asUser =
  (userId: string, email: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.provideService(effect, CurrentActor, { type: "user", userId, email })

layer(StorageLayer.memoryStorage)("Users", (it) => {
  it.effect("invite and create check their input: email, name, password, projects", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const bad = yield* Effect.flip(users.invite({ email: "not-an-email", name: "x".repeat(121) }))
      expect(bad).toMatchObject({ _tag: "InvalidRequest" })
      expect(bad._tag === "InvalidRequest" ? bad.details.map((d) => d.path) : []).toEqual(["email", "name"])
      const short = yield* Effect.flip(users.create({ email: `${fresh()}@example.com`, password: "short" }))
      expect(short).toMatchObject({ _tag: "InvalidRequest", details: [{ path: "password", message: "must be at least 12 characters" }] })
      const long = yield* Effect.flip(users.create({ email: `${fresh()}@example.com`, password: "x".repeat(1025) }))
      expect(long).toMatchObject({ _tag: "InvalidRequest", details: [{ path: "password", message: "must be at most 1024 characters" }] })
      const projectId = yield* givenProject
      const twice = yield* Effect.flip(
        users.invite({ email: `${fresh()}@example.com`, projects: [{ projectId, role: "viewer" }, { projectId, role: "admin" }] })
      )
      expect(twice).toMatchObject({ _tag: "InvalidRequest", details: [{ path: "projects[1].projectId" }] })
      const unknown = yield* Effect.flip(users.invite({ email: `${fresh()}@example.com`, projects: [{ projectId: "p-none", role: "viewer" }] }))
      expect(unknown).toMatchObject({ _tag: "ResourceNotFound", message: "Project 'p-none' not found" })
      expect((yield* users.invite({ email: "admin@localhost", admin: true })).user.admin).toBe(true)
    }))

  it.effect("a setup link sets the password once, within 72 hours", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const signIn = yield* SignIn
      const email = `${fresh()}@example.com`
      const { user, setupToken } = yield* users.invite({ email })
      expect(yield* Effect.flip(signIn.withPassword(email, PASSWORD))).toMatchObject({ _tag: "Unauthenticated" })
      const short = yield* Effect.flip(users.setup(setupToken, "short"))
      expect(short).toMatchObject({ _tag: "InvalidRequest", details: [{ path: "password" }] })
      expect(yield* users.setup(setupToken, PASSWORD)).toEqual(user)
      expect((yield* signIn.withPassword(email, PASSWORD)).user.id).toBe(user.id)
      expect(yield* Effect.flip(users.setup(setupToken, PASSWORD))).toMatchObject({ _tag: "InvalidRequest", message: "Setup link is invalid or has expired" })
      expect(yield* Effect.flip(users.setup("made-up", PASSWORD))).toMatchObject({ message: "Setup link is invalid or has expired" })

      const late = yield* users.invite({ email: `${fresh()}@example.com` })
      yield* TestClock.adjust(SETUP_TOKEN_LIFETIME_MS)
      expect(yield* Effect.flip(users.setup(late.setupToken, PASSWORD))).toMatchObject({ message: "Setup link is invalid or has expired" })
    }))

  it.effect("a reset: a new link, the password removed, sessions ended, earlier links void", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const sessions = yield* Sessions
      const signIn = yield* SignIn
      const email = `${fresh()}@example.com`
      const invited = yield* users.invite({ email })
      yield* users.setup(invited.setupToken, PASSWORD)
      const session = yield* sessions.start(invited.user.id)
      const first = yield* users.resetPassword(invited.user.id)
      const second = yield* users.resetPassword(invited.user.id)
      expect(yield* sessions.authenticate(session.token)).toEqual(Option.none())
      expect(yield* Effect.flip(signIn.withPassword(email, PASSWORD))).toMatchObject({ _tag: "Unauthenticated" })
      expect(yield* Effect.flip(users.setup(first.setupToken, PASSWORD))).toMatchObject({ _tag: "InvalidRequest" })
      yield* users.setup(second.setupToken, `${PASSWORD}!`)
      expect((yield* signIn.withPassword(email, `${PASSWORD}!`)).user.id).toBe(invited.user.id)
      expect(yield* Effect.flip(users.resetPassword("no-such-user"))).toMatchObject({ _tag: "ResourceNotFound", message: "User 'no-such-user' not found" })
    }))

  it.effect("update: name, admin flag, disabled; disabling ends sessions and voids links; re-enabling keeps the first disable time out", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const sessions = yield* Sessions
      const user = yield* users.create({ email: `${fresh()}@example.com`, password: PASSWORD })
      const session = yield* sessions.start(user.id)
      const link = yield* users.resetPassword(user.id)
      const session2 = yield* sessions.start(user.id)
      const renamed = yield* users.update(user.id, { name: "Edna", admin: true })
      expect(renamed).toMatchObject({ name: "Edna", admin: true, disabledAt: null })
      const disabled = yield* users.update(user.id, { disabled: true })
      expect(disabled.disabledAt).not.toBeNull()
      expect(yield* sessions.authenticate(session2.token)).toEqual(Option.none())
      expect(yield* sessions.authenticate(session.token)).toEqual(Option.none())
      expect(yield* Effect.flip(users.setup(link.setupToken, PASSWORD))).toMatchObject({ _tag: "InvalidRequest" })
      expect((yield* users.update(user.id, { disabled: true })).disabledAt).toBe(disabled.disabledAt)
      expect((yield* users.update(user.id, { disabled: false })).disabledAt).toBeNull()
      expect(yield* users.get(user.id)).toMatchObject({ name: "Edna", admin: true, disabledAt: null })
      expect(yield* Effect.flip(users.update("no-such-user", { name: "x" }))).toMatchObject({ _tag: "ResourceNotFound" })
    }))

  it.effect("a global admin cannot remove their own admin flag or disable themselves (409); another admin can", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const me = yield* users.create({ email: `${fresh()}@example.com`, password: PASSWORD, admin: true })
      const other = yield* users.create({ email: `${fresh()}@example.com`, password: PASSWORD, admin: true })
      const self = asUser(me.id, me.email)
      expect(yield* Effect.flip(self(users.update(me.id, { admin: false })))).toMatchObject({ _tag: "ResourceConflict" })
      expect(yield* Effect.flip(self(users.update(me.id, { disabled: true })))).toMatchObject({ _tag: "ResourceConflict" })
      expect(yield* self(users.update(me.id, { name: "Me", admin: true, disabled: false }))).toMatchObject({ name: "Me", admin: true })
      expect(yield* self(users.update(other.id, { admin: false }))).toMatchObject({ admin: false })
      expect(yield* asUser(other.id, other.email)(users.update(me.id, { disabled: true }))).toMatchObject({ disabledAt: expect.any(String) })
    }))

  it.effect("user writes are audited in the user's projects with the person as actor; never a password, hash or token", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const projectId = yield* givenProject
      const admin = yield* users.create({ email: `${fresh()}@example.com`, password: PASSWORD, admin: true })
      const { user, setupToken } = yield* asUser(admin.id, admin.email)(users.invite({ email: `${fresh()}@example.com`, projects: [{ projectId, role: "viewer" }] }))
      yield* users.setup(setupToken, PASSWORD)
      const reset = yield* asUser(admin.id, admin.email)(users.resetPassword(user.id))
      yield* asUser(admin.id, admin.email)(users.update(user.id, { name: "Renamed" }))
      const entries = (yield* (yield* AuditLog).list(projectId, {}, 100)).map((row) => row.entry).reverse()
      expect(entries.map((e) => e.action)).toEqual(["project.created", "user.created", "member.put", "user.password_reset", "user.updated"])
      expect(entries.slice(1).every((e) => e.actor.type === "user" && e.actor.userId === admin.id && e.actor.email === admin.email)).toBe(true)
      const text = JSON.stringify(entries)
      const hash = Option.getOrThrow(yield* (yield* UserRepository).getPasswordHash(admin.id))
      for (const secret of [PASSWORD, setupToken, reset.setupToken, hash, "argon2"]) expect(text.includes(secret)).toBe(false)
    }))
})
