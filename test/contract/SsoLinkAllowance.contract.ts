import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { LOCALHOST_NEVER_LINKED, SSO_LINK_ALLOWANCE_MS } from "../../src/domain/people/SsoLink.js"
import { SIGN_IN_REFUSALS } from "../../src/domain/people/SignInRefusal.js"
import { SsoIdentityRepository } from "../../src/ports/SsoIdentityRepository.js"
import { SignIn, type SsoClaims } from "../../src/services/people/SignIn.js"
import { Users } from "../../src/services/people/Users.js"
import { type Contract, freshProjectId } from "./Backend.js"

/**
 * A global admin's allowance to link an account by email at its next single sign-on, where the
 * rules refuse (a global admin's account, or one linked before): spent by that one link, which
 * replaces the identities linked before; expired, or for a disabled account, it opens nothing;
 * never for an address at localhost.
 */

const fresh = () => freshProjectId().slice(2)
const PASSWORD = "correct horse battery staple"
const ISSUER = "https://id.example.com"
const POLICY = { allowedDomains: [], defaultRole: "none" as const }

const claims = (email: string, subject = `sub-${fresh()}`): SsoClaims => ({ issuer: ISSUER, subject, email, emailVerified: true })
const notLinkable = { _tag: "Forbidden", message: SIGN_IN_REFUSALS.accountNotLinkable }

export const ssoLinkAllowanceContract: Contract = (it) => {
  it.effect("a global admin's account: refused, then linked once when allowed; the allowance is spent by that link", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const signIn = yield* SignIn
      const email = `chief.${fresh()}@example.com`
      const chief = yield* users.create({ email, password: PASSWORD, admin: true })
      expect(yield* Effect.flip(signIn.withSso(claims(email), POLICY))).toMatchObject(notLinkable)
      const before = Date.now()
      const allowed = yield* users.allowSsoLink(chief.id)
      expect(allowed.user.id).toBe(chief.id)
      const expiresIn = Date.parse(allowed.expiresAt) - before
      expect(expiresIn).toBeGreaterThan(SSO_LINK_ALLOWANCE_MS - 60_000)
      expect(expiresIn).toBeLessThanOrEqual(SSO_LINK_ALLOWANCE_MS + 60_000)
      const theirs = claims(email)
      const linked = yield* signIn.withSso(theirs, POLICY)
      expect(linked).toMatchObject({ id: chief.id, admin: true })
      // Spent: another identity asserting the address is refused; the linked one still opens it.
      expect(yield* Effect.flip(signIn.withSso(claims(email), POLICY))).toMatchObject(notLinkable)
      expect((yield* signIn.withSso(theirs, POLICY)).id).toBe(chief.id)
    }))

  it.effect("an account linked before: an allowed link moves it to the new identity; the old one no longer opens it", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const signIn = yield* SignIn
      const email = `mover.${fresh()}@example.com`
      const person = yield* users.create({ email, password: PASSWORD })
      const old = claims(email)
      expect((yield* signIn.withSso(old, POLICY)).id).toBe(person.id)
      const renewed = claims(email)
      expect(yield* Effect.flip(signIn.withSso(renewed, POLICY))).toMatchObject(notLinkable)
      yield* users.allowSsoLink(person.id)
      expect((yield* signIn.withSso(renewed, POLICY)).id).toBe(person.id)
      expect((yield* signIn.withSso(renewed, POLICY)).id).toBe(person.id)
      expect(yield* Effect.flip(signIn.withSso(old, POLICY))).toMatchObject(notLinkable)
    }))

  it.effect("an expired allowance opens nothing; a disabled account's is kept, unspent; an address at localhost is never allowed (409)", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const signIn = yield* SignIn
      const identities = yield* SsoIdentityRepository
      const email = `late.${fresh()}@example.com`
      const late = yield* users.create({ email, password: PASSWORD, admin: true })
      yield* identities.allowLink(late.id, "2026-01-01T00:00:00.000Z", "2026-01-04T00:00:00.000Z")
      expect(yield* Effect.flip(signIn.withSso(claims(email), POLICY))).toMatchObject(notLinkable)

      const offEmail = `off.${fresh()}@example.com`
      const off = yield* users.create({ email: offEmail, password: PASSWORD, admin: true })
      yield* users.create({ email: `keeper.${fresh()}@example.com`, password: PASSWORD, admin: true })
      yield* users.allowSsoLink(off.id)
      yield* users.update(off.id, { disabled: true })
      expect(yield* Effect.flip(signIn.withSso(claims(offEmail), POLICY))).toMatchObject(notLinkable)
      yield* users.update(off.id, { disabled: false })
      expect((yield* signIn.withSso(claims(offEmail), POLICY)).id).toBe(off.id)

      const local = yield* users.create({ email: `root.${fresh()}@localhost`, password: PASSWORD })
      expect(yield* Effect.flip(users.allowSsoLink(local.id))).toMatchObject({ _tag: "ResourceConflict", message: LOCALHOST_NEVER_LINKED })
    }))
}
