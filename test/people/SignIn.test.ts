import { expect, layer } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { SIGN_IN_FAILURE_WINDOW_MS } from "../../src/domain/people/SignInLimit.js"
import { SIGN_IN_REFUSALS } from "../../src/domain/people/SignInRefusal.js"
import { Members } from "../../src/services/people/Members.js"
import { SignIn } from "../../src/services/people/SignIn.js"
import { Users } from "../../src/services/people/Users.js"
import { fresh, givenProject, PASSWORD } from "./fixtures.js"

const INVALID = { _tag: "Unauthenticated", message: "Invalid email or password" }
/** An identity at the provider: a fresh subject unless named. */
const idp = (subject = `sub-${fresh()}`) => ({ issuer: "https://id.example.com", subject })

layer(StorageLayer.memoryStorage)("SignIn", (it) => {
  it.effect("with a password: the person and their memberships; the same 401 for every kind of failure", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const signIn = yield* SignIn
      const projectId = yield* givenProject
      const email = `Edna.${fresh()}@Example.com`
      const user = yield* users.create({ email, password: PASSWORD, projects: [{ projectId, role: "editor" }] })
      expect(yield* signIn.withPassword(` ${email.toLowerCase()} `, PASSWORD)).toEqual({ user, memberships: [{ projectId, role: "editor" }] })
      expect(yield* Effect.flip(signIn.withPassword(email, `${PASSWORD}x`))).toMatchObject(INVALID)
      expect(yield* Effect.flip(signIn.withPassword(`nobody.${fresh()}@example.com`, PASSWORD))).toMatchObject(INVALID)
      expect(yield* Effect.flip(signIn.withPassword(email, "x".repeat(5000)))).toMatchObject(INVALID)
      const invited = yield* users.invite({ email: `${fresh()}@example.com` })
      expect(yield* Effect.flip(signIn.withPassword(invited.user.email, PASSWORD))).toMatchObject(INVALID)
      yield* users.update(user.id, { disabled: true })
      expect(yield* Effect.flip(signIn.withPassword(email, PASSWORD))).toMatchObject(INVALID)
    }))

  it.effect("the limit: 429 from the 11th attempt, with Retry-After until the window passes; then a success forgets the failures", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const signIn = yield* SignIn
      const email = `${fresh()}@example.com`
      yield* users.create({ email, password: PASSWORD })
      yield* TestClock.adjust(SIGN_IN_FAILURE_WINDOW_MS) // away from the epoch
      for (let i = 0; i < 10; i++) {
        expect(yield* Effect.flip(signIn.withPassword(email, `wrong password ${i}`))).toMatchObject(INVALID)
        yield* TestClock.adjust(1000)
      }
      const limited = yield* Effect.flip(signIn.withPassword(email, PASSWORD))
      expect(limited).toMatchObject({ _tag: "RateLimited", retryAfterSeconds: 15 * 60 - 10 })
      yield* TestClock.adjust((15 * 60 - 11) * 1000)
      expect(yield* Effect.flip(signIn.withPassword(email, PASSWORD))).toMatchObject({ _tag: "RateLimited", retryAfterSeconds: 1 })
      yield* TestClock.adjust(1000)
      expect((yield* signIn.withPassword(email, PASSWORD)).user.email).toBe(email)
      // The success forgot the failures: one more failure is far from the limit.
      expect(yield* Effect.flip(signIn.withPassword(email, "wrong again!!"))).toMatchObject(INVALID)
      expect((yield* signIn.withPassword(email, PASSWORD)).user.email).toBe(email)
    }))

  it.effect("an unknown email is limited like a known one", () =>
    Effect.gen(function* () {
      const signIn = yield* SignIn
      const email = `nobody.${fresh()}@example.com`
      for (let i = 0; i < 10; i++) yield* Effect.flip(signIn.withPassword(email, PASSWORD))
      expect(yield* Effect.flip(signIn.withPassword(email.toUpperCase(), PASSWORD))).toMatchObject({ _tag: "RateLimited" })
    }))

  it.effect("single sign-on: the first sign-in makes the account with the default role in every project; the next finds it", () =>
    Effect.gen(function* () {
      const signIn = yield* SignIn
      const members = yield* Members
      const p1 = yield* givenProject
      const p2 = yield* givenProject
      const email = `Sso.${fresh()}@Corp.example`
      const policy = { allowedDomains: ["corp.example"], defaultRole: "editor" as const }
      const user = yield* signIn.withSso({ ...idp(`sub-${email}`), email, emailVerified: true, name: "Sso Person" }, policy)
      expect(user).toMatchObject({ email, name: "Sso Person", sso: true, admin: false })
      for (const p of [p1, p2]) expect(yield* members.list(p)).toContainEqual({ user, role: "editor" })
      expect(yield* signIn.withSso({ ...idp(`sub-${email}`), email: email.toLowerCase(), emailVerified: true }, policy)).toEqual(user)

      const none = yield* signIn.withSso({ ...idp(), email: `n.${fresh()}@corp.example`, emailVerified: true }, { allowedDomains: [], defaultRole: "none" })
      expect((yield* members.list(p1)).some((m) => m.user.id === none.id)).toBe(false)
    }))

  it.effect("single sign-on refuses an unverified email, a domain not allowed and a disabled user, with a message", () =>
    Effect.gen(function* () {
      const signIn = yield* SignIn
      const users = yield* Users
      const policy = { allowedDomains: ["corp.example"], defaultRole: "viewer" as const }
      const unverified = yield* Effect.flip(signIn.withSso({ ...idp(), email: `${fresh()}@corp.example`, emailVerified: false }, policy))
      // The sign-in page's own words (SignInRefusal.ts), which the dashboard recognizes.
      expect(unverified).toMatchObject({ _tag: "Forbidden", message: SIGN_IN_REFUSALS.emailNotVerified })
      const elsewhere = yield* Effect.flip(signIn.withSso({ ...idp(), email: `${fresh()}@evil.example`, emailVerified: true }, policy))
      expect(elsewhere).toMatchObject({ _tag: "Forbidden", message: SIGN_IN_REFUSALS.domainNotAllowed })
      const email = `${fresh()}@corp.example`
      const made = yield* users.create({ email, password: PASSWORD })
      yield* users.update(made.id, { disabled: true })
      const disabled = yield* Effect.flip(signIn.withSso({ ...idp(), email, emailVerified: true }, policy))
      expect(disabled).toMatchObject({ _tag: "Forbidden", message: SIGN_IN_REFUSALS.accountDisabled })
    }))
})
