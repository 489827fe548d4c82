import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { User } from "../../src/domain/people/User.js"
import { AuditLog } from "../../src/ports/AuditLog.js"
import { SessionRepository } from "../../src/ports/SessionRepository.js"
import { SetupTokenRepository } from "../../src/ports/SetupTokenRepository.js"
import { SignInFailureRepository } from "../../src/ports/SignInFailureRepository.js"
import { UserRepository } from "../../src/ports/UserRepository.js"
import { Members } from "../../src/services/people/Members.js"
import { hashToken } from "../../src/services/people/PeopleSupport.js"
import { Sessions } from "../../src/services/people/Sessions.js"
import { SignIn } from "../../src/services/people/SignIn.js"
import { Users } from "../../src/services/people/Users.js"
import { nodeCrypto } from "../../adapters/crypto/NodeCrypto.js"
import { type Contract, failureTag, freshProjectId, givenProject, RawDump } from "./Backend.js"

/** Tests share one database: each uses its own ids and emails. */
const fresh = () => freshProjectId().slice(2)

const userRecord = (overrides: Partial<User> = {}): User => {
  const id = `u-${fresh()}`
  return {
    id,
    email: `${id}@example.com`,
    name: "Edna",
    admin: false,
    createdAt: "2026-11-20T08:00:00.000Z",
    lastSignInAt: null,
    disabledAt: null,
    sso: false,
    ...overrides
  }
}

const givenUser = (overrides: Partial<User> = {}) =>
  Effect.gen(function* () {
    const user = userRecord(overrides)
    yield* (yield* UserRepository).insert(user)
    return user
  })

const T = (minute: number) => `2026-11-20T08:${String(minute).padStart(2, "0")}:00.000Z`
const PASSWORD = "correct horse battery staple"

/** Users and memberships: emails unique case-insensitively, password hashes apart, roles per project. */
export const userContract: Contract = (it) => {
  it.effect("stores users, finds them by id and by normalized email, lists them in creation order", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepository
      const a = yield* givenUser({ email: `Edna.${fresh()}@Example.COM` })
      const b = yield* givenUser({ admin: true, sso: true, lastSignInAt: T(1), disabledAt: T(2) })
      expect(yield* repo.get(a.id)).toEqual(Option.some(a))
      expect(yield* repo.get(b.id)).toEqual(Option.some(b))
      expect(yield* repo.get("no-such-user")).toEqual(Option.none())
      expect(yield* repo.findByEmail(a.email.toLowerCase())).toEqual(Option.some(a))
      expect(yield* repo.findByEmail(a.email)).toEqual(Option.none()) // callers pass the normalized form
      const listed = yield* repo.list()
      expect(listed.indexOf(listed.find((u) => u.id === a.id)!)).toBeLessThan(listed.indexOf(listed.find((u) => u.id === b.id)!))
    }))

  it.effect("emails are unique compared case-insensitively, on insert and on update", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepository
      const a = yield* givenUser({ email: `Ed.${fresh()}@Example.com` })
      const shouting = userRecord({ email: `  ${a.email.toUpperCase()} ` })
      expect(yield* failureTag(repo.insert(shouting))).toBe("DuplicateKey")
      const b = yield* givenUser()
      expect(yield* failureTag(repo.update({ ...b, email: a.email.toLowerCase() }))).toBe("DuplicateKey")
      // Changing the case of one's own email is no conflict.
      yield* repo.update({ ...a, email: a.email.toLowerCase(), name: "Ed" })
      expect(Option.map(yield* repo.get(a.id), (u) => [u.email, u.name])).toEqual(Option.some([a.email.toLowerCase(), "Ed"]))
      expect(yield* failureTag(repo.update(userRecord()))).toBe("NotFound")
      expect(yield* failureTag(repo.insert({ ...userRecord(), id: a.id }))).toBe("DuplicateKey")
    }))

  it.effect("password hashes are set, replaced and removed apart from the user record", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepository
      const user = yield* givenUser()
      expect(yield* repo.getPasswordHash(user.id)).toEqual(Option.none())
      yield* repo.setPasswordHash(user.id, "$argon2id$first")
      yield* repo.setPasswordHash(user.id, "$argon2id$second")
      expect(yield* repo.getPasswordHash(user.id)).toEqual(Option.some("$argon2id$second"))
      expect(yield* repo.get(user.id)).toEqual(Option.some(user))
      yield* repo.setPasswordHash(user.id, null)
      expect(yield* repo.getPasswordHash(user.id)).toEqual(Option.none())
      expect(yield* failureTag(repo.setPasswordHash("no-such-user", "x"))).toBe("NotFound")
    }))

  it.effect("memberships: one role per project, changed in place, removed; members of a project in the order added", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepository
      const p1 = yield* givenProject()
      const p2 = yield* givenProject()
      const a = yield* givenUser()
      const b = yield* givenUser()
      yield* repo.putMembership(b.id, p1, "viewer")
      yield* repo.putMembership(a.id, p1, "editor")
      yield* repo.putMembership(a.id, p2, "admin")
      yield* repo.putMembership(b.id, p1, "admin")
      expect(yield* repo.membersOf(p1)).toEqual([
        { user: b, role: "admin" },
        { user: a, role: "editor" }
      ])
      expect(yield* repo.membershipsOf(a.id)).toEqual(
        [
          { projectId: p1, role: "editor" },
          { projectId: p2, role: "admin" }
        ].sort((x, y) => (x.projectId < y.projectId ? -1 : 1))
      )
      expect(yield* repo.removeMembership(a.id, p1)).toBe(true)
      expect(yield* repo.removeMembership(a.id, p1)).toBe(false)
      expect(yield* repo.membershipsOf(a.id)).toEqual([{ projectId: p2, role: "admin" }])
      expect(yield* repo.membersOf(p1)).toEqual([{ user: b, role: "admin" }])
      const unknownUser = yield* Effect.flip(repo.putMembership("no-such-user", p1, "viewer"))
      expect(unknownUser).toMatchObject({ _tag: "NotFound", entity: "user" })
      const unknownProject = yield* Effect.flip(repo.putMembership(a.id, freshProjectId(), "viewer"))
      expect(unknownProject).toMatchObject({ _tag: "NotFound", entity: "project" })
    }))

  it.effect("counts the global admins who are not disabled", () =>
    Effect.gen(function* () {
      const repo = yield* UserRepository
      const before = yield* repo.countAdmins()
      yield* givenUser({ admin: true })
      const disabled = yield* givenUser({ admin: true })
      yield* givenUser()
      expect(yield* repo.countAdmins()).toBe(before + 2)
      yield* repo.update({ ...disabled, disabledAt: T(3) })
      expect(yield* repo.countAdmins()).toBe(before + 1)
    }))

  it.effect("an invitation: the user, their memberships and audit entries in their projects; no token in the database or the log", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const projectId = yield* givenProject()
      const email = `Invited.${fresh()}@Example.com`
      const { user, setupToken } = yield* users.invite({ email, name: "Inv", projects: [{ projectId, role: "editor" }] })
      expect(user).toMatchObject({ email, name: "Inv", admin: false, sso: false, lastSignInAt: null, disabledAt: null })
      expect(setupToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(yield* (yield* Members).list(projectId)).toEqual([{ user, role: "editor" }])
      const conflict = yield* Effect.flip(users.invite({ email: email.toLowerCase() }))
      expect(conflict._tag).toBe("ResourceConflict")
      const entries = (yield* (yield* AuditLog).list(projectId, {}, 100)).map((row) => row.entry)
      expect(entries.map((e) => [e.action, e.resource.type, e.resource.key]).reverse()).toEqual([
        ["project.created", "project", projectId],
        ["user.created", "user", user.id],
        ["member.put", "member", user.id]
      ])
      const raw = yield* (yield* RawDump)
      expect(raw.includes(setupToken)).toBe(false)
      expect(raw.includes(hashToken(nodeCrypto, setupToken))).toBe(true)
    }))
}

/** Setup tokens: stored hashed, spent once (also when two spend at the same moment), expired ones refused. */
export const setupTokenContract: Contract = (it) => {
  it.effect("a token is spent once; an expired or unknown one gives none; a user's tokens are deleted together", () =>
    Effect.gen(function* () {
      const tokens = yield* SetupTokenRepository
      const user = yield* givenUser()
      const hash = `h-${fresh()}`
      yield* tokens.insert({ hash, userId: user.id, createdAt: T(0), expiresAt: T(10) })
      expect(yield* tokens.spend(hash, T(10))).toEqual(Option.none()) // expired at T(10)
      expect(yield* tokens.spend(hash, T(9))).toEqual(Option.some(user.id))
      expect(yield* tokens.spend(hash, T(9))).toEqual(Option.none())
      expect(yield* tokens.spend("unknown", T(0))).toEqual(Option.none())
      yield* tokens.insert({ hash: `${hash}-1`, userId: user.id, createdAt: T(0), expiresAt: T(10) })
      yield* tokens.insert({ hash: `${hash}-2`, userId: user.id, createdAt: T(0), expiresAt: T(10) })
      expect(yield* tokens.deleteForUser(user.id)).toBe(2)
      expect(yield* tokens.spend(`${hash}-1`, T(1))).toEqual(Option.none())
      expect(yield* failureTag(tokens.insert({ hash: `${hash}-3`, userId: user.id, createdAt: T(0), expiresAt: T(10) }).pipe(
        Effect.zipRight(tokens.insert({ hash: `${hash}-3`, userId: user.id, createdAt: T(0), expiresAt: T(10) }))
      ))).toBe("DuplicateKey")
    }))

  it.effect("two spends of one token at the same moment: exactly one gets the user", () =>
    Effect.gen(function* () {
      const tokens = yield* SetupTokenRepository
      const user = yield* givenUser()
      for (let round = 0; round < 5; round++) {
        const hash = `race-${fresh()}`
        yield* tokens.insert({ hash, userId: user.id, createdAt: T(0), expiresAt: T(10) })
        const results = yield* Effect.all([tokens.spend(hash, T(1)), tokens.spend(hash, T(1)), tokens.spend(hash, T(1))], { concurrency: "unbounded" })
        expect(results.filter(Option.isSome)).toEqual([Option.some(user.id)])
      }
    }))

  it.effect("two setups with one link at the same moment: one sets the password, the other is refused", () =>
    Effect.gen(function* () {
      const users = yield* Users
      // A link used once is spent.
      const once = yield* users.invite({ email: `race.${fresh()}@example.com` })
      yield* users.setup(once.setupToken, PASSWORD)
      expect((yield* Effect.flip(users.setup(once.setupToken, PASSWORD)))._tag).toBe("InvalidRequest")
      const again = yield* users.invite({ email: `race3.${fresh()}@example.com` })
      const outcomes = yield* Effect.all(
        [Effect.either(users.setup(again.setupToken, PASSWORD)), Effect.either(users.setup(again.setupToken, `${PASSWORD} two`))],
        { concurrency: "unbounded" }
      )
      expect(outcomes.filter((o) => o._tag === "Right").length).toBe(1)
      const refused = outcomes.find((o) => o._tag === "Left")
      expect(refused?._tag === "Left" ? refused.left : undefined).toMatchObject({ _tag: "InvalidRequest", message: "Setup link is invalid or has expired" })
      expect(Option.isSome(yield* (yield* UserRepository).getPasswordHash(again.user.id))).toBe(true)
    }))
}

/** Sessions: by token hash, touched, deleted one by one, per user, and when expired. */
export const sessionContract: Contract = (it) => {
  it.effect("sessions are found by hash, touched, deleted, and deleted per user", () =>
    Effect.gen(function* () {
      const sessions = yield* SessionRepository
      const a = yield* givenUser()
      const b = yield* givenUser()
      const s = (userId: string, expiresAt = T(50)) => ({ hash: `s-${fresh()}`, userId, createdAt: T(0), lastSeenAt: T(0), expiresAt })
      const a1 = s(a.id)
      const a2 = s(a.id)
      const b1 = s(b.id)
      for (const session of [a1, a2, b1]) yield* sessions.insert(session)
      expect(yield* sessions.find(a1.hash)).toEqual(Option.some(a1))
      expect(yield* sessions.find("unknown")).toEqual(Option.none())
      yield* sessions.touch(a1.hash, T(5))
      expect(Option.map(yield* sessions.find(a1.hash), (x) => x.lastSeenAt)).toEqual(Option.some(T(5)))
      yield* sessions.touch("unknown", T(5))
      expect(yield* failureTag(sessions.insert(a1))).toBe("DuplicateKey")
      expect(yield* sessions.deleteForUser(a.id)).toBe(2)
      expect(yield* sessions.find(a2.hash)).toEqual(Option.none())
      expect(yield* sessions.find(b1.hash)).toEqual(Option.some(b1))
      yield* sessions.delete(b1.hash)
      yield* sessions.delete(b1.hash)
      expect(yield* sessions.find(b1.hash)).toEqual(Option.none())
      const old = s(b.id, "2000-01-01T00:00:00.000Z")
      yield* sessions.insert(old)
      expect(yield* sessions.deleteExpired("2000-01-01T00:00:00.000Z")).toBeGreaterThanOrEqual(1)
      expect(yield* sessions.find(old.hash)).toEqual(Option.none())
    }))

  it.effect("a signed-in session: only the token's hash is stored; sign-out and disabling end it", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const sessions = yield* Sessions
      const projectId = yield* givenProject()
      const user = yield* users.create({ email: `s.${fresh()}@example.com`, password: PASSWORD, projects: [{ projectId, role: "viewer" }] })
      const first = yield* sessions.start(user.id)
      const second = yield* sessions.start(user.id)
      expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const me = yield* sessions.authenticate(first.token)
      expect(Option.map(me, (m) => [m.user.id, m.memberships])).toEqual(Option.some([user.id, [{ projectId, role: "viewer" }]]))
      expect(Option.getOrThrow(me).user.lastSignInAt).not.toBeNull()
      const raw = yield* (yield* RawDump)
      expect(raw.includes(first.token)).toBe(false)
      expect(raw.includes(hashToken(nodeCrypto, first.token))).toBe(true)
      expect(raw.includes(PASSWORD)).toBe(false)
      yield* sessions.end(first.token)
      expect(yield* sessions.authenticate(first.token)).toEqual(Option.none())
      expect(Option.isSome(yield* sessions.authenticate(second.token))).toBe(true)
      yield* users.update(user.id, { disabled: true })
      expect(yield* sessions.authenticate(second.token)).toEqual(Option.none())
      expect(yield* (yield* SessionRepository).find(hashToken(nodeCrypto, second.token))).toEqual(Option.none())
      expect(yield* sessions.authenticate("")).toEqual(Option.none())
    }))
}

/** Failed sign-ins per normalized email, across the window, and the limit over them. */
export const signInFailureContract: Contract = (it) => {
  it.effect("failures are counted per email after a time, forgotten when old, cleared on demand", () =>
    Effect.gen(function* () {
      const failures = yield* SignInFailureRepository
      const a = `a.${fresh()}@example.com`
      const b = `b.${fresh()}@example.com`
      yield* failures.record(a, "", T(1), T(0))
      yield* failures.record(a, "", T(3), T(0))
      yield* failures.record(a, "", T(2), T(0))
      yield* failures.record(b, "", T(2), T(0))
      expect(yield* failures.since(a, T(0))).toEqual([T(1), T(2), T(3)])
      expect(yield* failures.since(a, T(1))).toEqual([T(2), T(3)])
      expect(yield* failures.since(b, T(0))).toEqual([T(2)])
      // A failure forgets the same email's failures at or before `forgetUpTo`.
      yield* failures.record(a, "", T(20), T(2))
      expect(yield* failures.since(a, "2000-01-01T00:00:00.000Z")).toEqual([T(3), T(20)])
      yield* failures.clear(a)
      expect(yield* failures.since(a, T(0))).toEqual([])
      expect(yield* failures.since(b, T(0))).toEqual([T(2)])
    }))

  it.effect("admit: an attempt is recorded unless the limit's worth remain in the window; a refusal records nothing", () =>
    Effect.gen(function* () {
      const failures = yield* SignInFailureRepository
      const a = `admit.${fresh()}@example.com`
      for (let i = 1; i <= 3; i++) expect(yield* failures.admit(a, "", T(i), T(0), 3)).toEqual({ _tag: "Admitted" })
      expect(yield* failures.admit(a, "", T(4), T(0), 3)).toEqual({ _tag: "Refused", failures: [T(1), T(2), T(3)] })
      expect(yield* failures.since(a, T(0))).toEqual([T(1), T(2), T(3)])
      // Old ones are forgotten first: with T(1) out of the window, there is room again.
      expect(yield* failures.admit(a, "", T(5), T(1), 3)).toEqual({ _tag: "Admitted" })
      expect(yield* failures.since(a, T(0))).toEqual([T(2), T(3), T(5)])
      // Simultaneous attempts: exactly the limit admitted.
      const b = `admit.b.${fresh()}@example.com`
      const answers = yield* Effect.all(
        Array.from({ length: 12 }, () => failures.admit(b, "", T(6), T(0), 5)),
        { concurrency: "unbounded" }
      )
      expect(answers.filter((x) => x._tag === "Admitted").length).toBe(5)
      expect((yield* failures.since(b, T(0))).length).toBe(5)
    }))

  it.effect("ten failures for one email in the window: 429 even with the right password; the same 401 for every other failure", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const signIn = yield* SignIn
      const email = `Limit.${fresh()}@Example.com`
      const user = yield* users.create({ email, password: PASSWORD })
      const ok = yield* signIn.withPassword(email.toUpperCase(), PASSWORD)
      expect(ok.user.id).toBe(user.id)
      const unknown = yield* Effect.flip(signIn.withPassword(`nobody.${fresh()}@example.com`, PASSWORD))
      const wrong = yield* Effect.flip(signIn.withPassword(email, "wrong password!"))
      expect(unknown).toMatchObject({ _tag: "Unauthenticated", message: "Invalid email or password" })
      expect(wrong).toMatchObject({ _tag: "Unauthenticated", message: "Invalid email or password" })
      for (let i = 1; i < 10; i++) yield* Effect.flip(signIn.withPassword(email.toLowerCase(), `wrong password ${i}`))
      const limited = yield* Effect.flip(signIn.withPassword(email, PASSWORD))
      expect(limited._tag).toBe("RateLimited")
      expect(limited._tag === "RateLimited" ? limited.retryAfterSeconds : 0).toBeGreaterThan(14 * 60)
      // Another email is not limited by these.
      const other = yield* users.create({ email: `other.${fresh()}@example.com`, password: PASSWORD })
      expect((yield* signIn.withPassword(other.email, PASSWORD)).user.id).toBe(other.id)
    }))
}
