import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SIGN_IN_REFUSALS } from "../../src/domain/people/SignInRefusal.js"
import { SsoIdentityRepository } from "../../src/ports/SsoIdentityRepository.js"
import { UserRepository } from "../../src/ports/UserRepository.js"
import { SignIn, type SsoClaims } from "../../src/services/people/SignIn.js"
import { Users } from "../../src/services/people/Users.js"
import { type Contract, freshProjectId } from "./Backend.js"

/**
 * Single sign-on opens the account its identity (issuer, subject) is linked to, and links an
 * existing account by email only once, never a global admin's or one at localhost; emails are
 * compared without folds that make two addresses one.
 */

const fresh = () => freshProjectId().slice(2)
const PASSWORD = "correct horse battery staple"
const ISSUER = "https://id.example.com"
const POLICY = { allowedDomains: [], defaultRole: "none" as const }

const claims = (email: string, subject = `sub-${fresh()}`, issuer = ISSUER): SsoClaims => ({ issuer, subject, email, emailVerified: true })
const notLinkable = { _tag: "Forbidden", message: SIGN_IN_REFUSALS.accountNotLinkable }

export const ssoLinkingContract: Contract = (it) => {
  it.effect("identities: found by issuer and subject, linked once, an account linked or not", () =>
    Effect.gen(function* () {
      const identities = yield* SsoIdentityRepository
      const id = `u-${fresh()}`
      yield* (yield* UserRepository).insert({
        id, email: `${id}@example.com`, name: "", admin: false, createdAt: "2026-01-01T00:00:00.000Z", lastSignInAt: null, disabledAt: null, sso: true
      })
      const subject = `s-${fresh()}`
      expect(yield* identities.isLinked(id)).toBe(false)
      yield* identities.link(ISSUER, subject, id, "2026-01-01T00:00:00.000Z")
      expect(yield* identities.find(ISSUER, subject)).toEqual(Option.some(id))
      expect(yield* identities.find("https://other.example.com", subject)).toEqual(Option.none())
      expect(yield* identities.isLinked(id)).toBe(true)
      expect((yield* Effect.flip(identities.link(ISSUER, subject, id, "2026-01-01T00:00:00.000Z")))._tag).toBe("DuplicateKey")
    }))

  it.effect("the identity opens its account afterwards, whatever email it then asserts; another identity with that email is refused", () =>
    Effect.gen(function* () {
      const signIn = yield* SignIn
      const email = `first.${fresh()}@example.com`
      const first = claims(email)
      const made = yield* signIn.withSso(first, POLICY)
      expect(made).toMatchObject({ email, sso: true })
      // The provider changed the person's address: still their account.
      expect((yield* signIn.withSso({ ...first, email: `renamed.${fresh()}@example.com` }, POLICY)).id).toBe(made.id)
      // Someone else at the provider (or another provider) now asserting that address: refused.
      expect(yield* Effect.flip(signIn.withSso(claims(email), POLICY))).toMatchObject(notLinkable)
      expect(yield* Effect.flip(signIn.withSso(claims(email, first.subject, "https://other.example.com"), POLICY))).toMatchObject(notLinkable)
    }))

  it.effect("an account made with a password is linked by email once, at its first single sign-on; not by a second identity", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const signIn = yield* SignIn
      const email = `Pat.${fresh()}@Example.com`
      const user = yield* users.create({ email, password: PASSWORD })
      const theirs = claims(email.toLowerCase())
      expect((yield* signIn.withSso(theirs, POLICY)).id).toBe(user.id)
      expect((yield* signIn.withSso(theirs, POLICY)).id).toBe(user.id)
      expect(yield* Effect.flip(signIn.withSso(claims(email), POLICY))).toMatchObject(notLinkable)
    }))

  it.effect("a global admin's account is never linked by email; an address at localhost never signs in", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const signIn = yield* SignIn
      const email = `boss.${fresh()}@example.com`
      const boss = yield* users.create({ email, password: PASSWORD, admin: true })
      expect(yield* Effect.flip(signIn.withSso(claims(email), POLICY))).toMatchObject(notLinkable)
      // An admin lets it happen by removing the flag for the first sign-on, then giving it back
      // (another global admin stays meanwhile).
      yield* users.create({ email: `deputy.${fresh()}@example.com`, password: PASSWORD, admin: true })
      yield* users.update(boss.id, { admin: false })
      const theirs = claims(email)
      expect((yield* signIn.withSso(theirs, POLICY)).id).toBe(boss.id)
      yield* users.update(boss.id, { admin: true })
      expect((yield* signIn.withSso(theirs, POLICY)).id).toBe(boss.id)

      const local = `admin.${fresh()}@localhost`
      yield* users.create({ email: local, password: PASSWORD })
      const refused = { _tag: "Forbidden", message: SIGN_IN_REFUSALS.emailUnusable }
      expect(yield* Effect.flip(signIn.withSso(claims(local), POLICY))).toMatchObject(refused)
      expect(yield* Effect.flip(signIn.withSso(claims(`x.${fresh()}@LocalHost`), POLICY))).toMatchObject(refused)
      expect(yield* Effect.flip(signIn.withSso(claims(`x.${fresh()}@dev.localhost`), POLICY))).toMatchObject(refused)
    }))

  it.effect("the Kelvin sign: \u212Aate@ is not kate@, by single sign-on or by password", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const signIn = yield* SignIn
      const domain = `${fresh()}.example.com`
      const kate = yield* users.create({ email: `kate@${domain}`, password: PASSWORD })
      const kelvin = yield* signIn.withSso(claims(`\u212Aate@${domain}`), POLICY)
      expect(kelvin.id).not.toBe(kate.id)
      expect(kelvin.email).toBe(`\u212Aate@${domain}`)
      expect(yield* Effect.flip(signIn.withPassword(`\u212Aate@${domain}`, PASSWORD))).toMatchObject({ _tag: "Unauthenticated" })
      // The domain's case does not matter; an ASCII local part's neither.
      expect((yield* signIn.withPassword(`KATE@${domain.toUpperCase()}`, PASSWORD)).user.id).toBe(kate.id)
    }))
}
