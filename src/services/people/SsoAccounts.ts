/**
 * Which account a single sign-on opens (docs/guide/people.md, "What happens at sign-in"): the one
 * its identity (the provider's issuer and the person's subject there) is linked to; else, once,
 * the account with its email when that may be linked (domain/people/SsoLink.ts); else a new
 * account, linked to it. `SignIn.withSso` is this.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type Actor, CurrentActor } from "../../domain/audit/Actor.js"
import { Forbidden } from "../../domain/Errors.js"
import type { Role } from "../../domain/people/Role.js"
import { SIGN_IN_REFUSALS, type SignInRefusal } from "../../domain/people/SignInRefusal.js"
import { isLocalhostEmail, linkByEmailRefusal } from "../../domain/people/SsoLink.js"
import { domainAllowed } from "../../domain/people/SsoDomain.js"
import { normalizeEmail, type User } from "../../domain/people/User.js"
import { emailProblems } from "../../domain/people/ValidatePerson.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import { SsoIdentityRepository } from "../../ports/SsoIdentityRepository.js"
import { UserRepository } from "../../ports/UserRepository.js"
import * as Writes from "../shared/Writes.js"
import { newUserAudit, userAudit } from "./PeopleSupport.js"

/** What the identity provider says about the person (from the verified ID token / userinfo). */
export interface SsoClaims {
  /** The ID token's `iss`: the provider. */
  readonly issuer: string
  /** The ID token's `sub`: the person at that provider, never reassigned. */
  readonly subject: string
  readonly email: string
  readonly emailVerified: boolean
  readonly name?: string | undefined
}

export interface SsoPolicy {
  /** FLAGPORT_OIDC_ALLOWED_DOMAINS, parsed (SsoDomain.parseAllowedDomains); empty allows every domain. */
  readonly allowedDomains: ReadonlyArray<string>
  /** FLAGPORT_OIDC_DEFAULT_ROLE: the role a new person gets in every project, or `none`. */
  readonly defaultRole: Role | "none"
}

const refuse = (reason: SignInRefusal) => Effect.fail(new Forbidden({ message: SIGN_IN_REFUSALS[reason] }))

/** Why the claims cannot sign anyone in, whoever they name, or `null`. */
const claimsRefusal = (claims: SsoClaims, policy: SsoPolicy): SignInRefusal | null => {
  if (!claims.emailVerified) return "emailNotVerified"
  if (emailProblems(claims.email.trim()).length > 0 || isLocalhostEmail(claims.email)) return "emailUnusable"
  if (!domainAllowed(claims.email, policy.allowedDomains)) return "domainNotAllowed"
  return null
}

export const makeWithSso = Effect.gen(function* () {
  const users = yield* UserRepository
  const identities = yield* SsoIdentityRepository
  const projects = yield* ProjectRepository
  const ids = yield* IdGenerator
  const writes = yield* Writes.writer

  /** The audit log credits the person themselves (no one else acted), not the default (the CLI). */
  const asThePerson = (user: Pick<User, "id" | "email">) =>
    Effect.provideService(CurrentActor, { type: "user", userId: user.id, email: user.email } satisfies Actor)

  /** The first sign-in of a person: their account, linked to the identity, with the default role in every project. */
  const createLinked = (claims: SsoClaims, policy: SsoPolicy) =>
    Effect.gen(function* () {
      const id = yield* ids.next
      const projectIds = policy.defaultRole === "none" ? [] : (yield* projects.list()).map((p) => p.id)
      const email = claims.email.trim()
      return yield* writes.record(null, ({ now }) =>
        Effect.gen(function* () {
          const user: User = {
            id,
            email,
            name: (claims.name ?? "").trim().slice(0, 120),
            admin: false,
            createdAt: now,
            lastSignInAt: null,
            disabledAt: null,
            sso: true
          }
          yield* users.insert(user)
          yield* identities.link(claims.issuer, claims.subject, id, now)
          const memberships = []
          if (policy.defaultRole !== "none") {
            for (const projectId of projectIds) {
              const added = yield* users.putMembership(id, projectId, policy.defaultRole).pipe(
                Effect.as(true),
                Effect.catchTag("NotFound", () => Effect.succeed(false)) // a project deleted meanwhile
              )
              if (added) memberships.push({ projectId, role: policy.defaultRole })
            }
          }
          return { value: user, audit: newUserAudit(user, memberships) }
        })
      ).pipe(asThePerson({ id, email }))
    })

  /** Links the identity to an existing account (its first single sign-on), recorded as `user.sso_linked`. */
  const linkExisting = (user: User, claims: SsoClaims) =>
    writes.record(null, ({ now }) =>
      Effect.gen(function* () {
        yield* identities.link(claims.issuer, claims.subject, user.id, now)
        const memberships = yield* users.membershipsOf(user.id)
        return { value: user, audit: userAudit("user.sso_linked", memberships, user, user) }
      })
    ).pipe(asThePerson(user))

  /**
   * Links the identity to an existing account the rules refuse, when a global admin allowed it
   * (Users.allowSsoLink): the allowance is spent in the same write, the identities linked before
   * are replaced; without one (or with one expired, or spent by a sign-in at the same moment),
   * the rules' refusal.
   */
  const linkAllowed = (user: User, claims: SsoClaims, refusal: SignInRefusal) =>
    writes.record(null, ({ now }) =>
      Effect.gen(function* () {
        if (!(yield* identities.spendAllowance(user.id, now))) return yield* refuse(refusal)
        yield* identities.unlinkAll(user.id)
        yield* identities.link(claims.issuer, claims.subject, user.id, now)
        const memberships = yield* users.membershipsOf(user.id)
        return { value: user, audit: userAudit("user.sso_linked", memberships, user, user) }
      })
    ).pipe(asThePerson(user))

  /** The account the claims open, linking or making it when this is its first single sign-on. */
  const resolve = (claims: SsoClaims, policy: SsoPolicy) =>
    Effect.gen(function* () {
      const linked = yield* identities.find(claims.issuer, claims.subject)
      if (Option.isSome(linked)) {
        const user = yield* users.get(linked.value)
        if (Option.isNone(user)) return yield* Effect.die(`sso identity of a vanished user ${linked.value}`) // rows cascade with the user
        return user.value
      }
      const existing = yield* users.findByEmail(normalizeEmail(claims.email))
      if (Option.isNone(existing)) return yield* createLinked(claims, policy)
      const refusal = linkByEmailRefusal(existing.value, yield* identities.isLinked(existing.value.id))
      if (refusal !== null && isLocalhostEmail(existing.value.email)) return yield* refuse(refusal)
      if (existing.value.disabledAt !== null) return yield* refuse(refusal ?? "accountDisabled")
      return yield* (refusal === null ? linkExisting(existing.value, claims) : linkAllowed(existing.value, claims, refusal))
    })

  return Effect.fn("SignIn.withSso")(function* (claims: SsoClaims, policy: SsoPolicy) {
    const refusal = claimsRefusal(claims, policy)
    if (refusal !== null) return yield* refuse(refusal)
    // Two first sign-ins at the same moment: the other made or linked the account (or took the
    // email); decide again, seeing what it did.
    const user = yield* resolve(claims, policy).pipe(
      Effect.catchTag("DuplicateKey", () => resolve(claims, policy).pipe(Effect.catchTag("DuplicateKey", Effect.die)))
    )
    if (user.disabledAt !== null) return yield* refuse("accountDisabled")
    return user
  })
})
