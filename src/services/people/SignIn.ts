/**
 * Signing in (docs/guide/people.md): with a password, limited per email and client address, or with
 * single sign-on (SsoAccounts.ts), whose first sign-in links or makes the account. A session is then started with `Sessions.start`.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { formatTimestamp } from "../../domain/definitions/Ids.js"
import { type Forbidden, RateLimited, type ServiceUnavailable, Unauthenticated } from "../../domain/Errors.js"
import { failureWindowStart, SIGN_IN_FAILURE_LIMIT, signInDelayMillis, signInRetryAfterSeconds } from "../../domain/people/SignInLimit.js"
import { PASSWORD_MAX_LENGTH } from "../../domain/people/PasswordRule.js"
import { normalizeEmail, type User, type UserWithMemberships } from "../../domain/people/User.js"
import { PasswordHasher } from "../../ports/PasswordHasher.js"
import { SignInFailureRepository } from "../../ports/SignInFailureRepository.js"
import { DeviceTrust } from "./DeviceTrust.js"
import { type HashingLane, SignInGuard } from "./SignInGuard.js"
import * as ServiceMetrics from "../operations/ServiceMetrics.js"
import type { StorageError } from "../../ports/StorageError.js"
import { UserRepository } from "../../ports/UserRepository.js"

export const INVALID_CREDENTIALS = "Invalid email or password"

import { makeWithSso, type SsoClaims, type SsoPolicy } from "./SsoAccounts.js"

export type { SsoClaims, SsoPolicy }

export interface SignInShape {
  /**
   * The person with this email and password, with their memberships. 401 "Invalid email or
   * password" alike for a wrong password, an unknown email, a user without a password and a
   * disabled user, each after one Argon2id verification (the same time). 429 `RateLimited` after
   * 10 failures for the email from the client's address within 15 minutes, until the window has
   * passed, even with the right password; after 10 failures for the email from any addresses, each
   * attempt waits 2 s first (domain/people/SignInLimit.ts). The attempt is counted before the
   * verification, atomically in the database, so simultaneous attempts from one address (in any
   * number of processes) get at most 10 verifications a window. A success forgets the email's
   * failures from that address. `client` (the client's address, when known; `""` stands for an
   * unknown one) also counts against its attempts (SignInGuard: 429 beyond them, before any
   * hashing or database write); 503 `ServiceUnavailable` when too many passwords are being hashed
   * at once (nothing counted). `deviceCookie`: the value of the browser's device cookie
   * (DeviceTrust); one valid for this email hashes in the device lane, which a flood cannot fill,
   * and skips the per-email wait (SignInGuard.deviceLane bounds its attempts instead). The answers
   * are the same with or without it.
   */
  readonly withPassword: (
    email: string,
    password: string,
    client?: string | undefined,
    deviceCookie?: string | undefined
  ) => Effect.Effect<UserWithMemberships, Unauthenticated | RateLimited | ServiceUnavailable | StorageError>
  /**
   * The person a single sign-on vouches for (SsoAccounts.ts): the account its identity (issuer,
   * subject) is linked to; else, linking it, the account with its email when never linked, not a
   * global admin's and not at localhost; else a new one (`sso: true`, `policy.defaultRole` in every
   * project, none for `none`), linked. 403 `Forbidden` with a message for the sign-in page when the
   * email is not verified, unusable or at localhost, its domain is not allowed, the account with
   * the email may not be linked, or the user is disabled.
   */
  readonly withSso: (claims: SsoClaims, policy: SsoPolicy) => Effect.Effect<User, Forbidden | StorageError>
}

export class SignIn extends Context.Tag("@flagport/services/SignIn")<SignIn, SignInShape>() {}

export const make = Effect.gen(function* () {
  const users = yield* UserRepository
  const failures = yield* SignInFailureRepository
  const hasher = yield* PasswordHasher
  const guard = yield* SignInGuard
  const devices = yield* DeviceTrust

  /** The 429 of an address that has used its failures for the email (their times), counted. */
  const limited = (failureTimes: ReadonlyArray<string>, millis: number) =>
    Effect.gen(function* () {
      const retryAfterSeconds = signInRetryAfterSeconds(failureTimes.map(Date.parse), millis) ?? 1
      yield* Metric.increment(ServiceMetrics.signInFailures.tooManyAttempts)
      return yield* new RateLimited({ message: `Too many failed sign-ins; try again in ${retryAfterSeconds} seconds.`, retryAfterSeconds })
    })

  /** One attempt, counted in the database before its password is verified (inside the hashing bound). */
  const verifyAttempt = (normalized: string, password: string, client: string) =>
    Effect.gen(function* () {
      const millis = yield* Clock.currentTimeMillis
      const windowStart = formatTimestamp(failureWindowStart(millis))
      // The attempt is counted before its password is verified, atomically per email in the
      // database: of any number of simultaneous attempts from one address, at most the limit get
      // a verification.
      const admission = yield* failures.admit(normalized, client, formatTimestamp(millis), windowStart, SIGN_IN_FAILURE_LIMIT)
      if (admission._tag === "Refused") return yield* limited(admission.failures, millis)
      const user = yield* users.findByEmail(normalized)
      const stored = Option.isSome(user) ? yield* users.getPasswordHash(user.value.id) : Option.none<string>()
      // Always one verification, against the dummy hash when there is nothing to verify against, so
      // the answer takes as long for an unknown email as for a known one. An over-long password
      // (which no stored hash can match) is not hashed in full: its length is bounded here.
      const matches = yield* guard.verify(
        Option.getOrElse(stored, () => hasher.dummyHash),
        password.length > PASSWORD_MAX_LENGTH ? "" : password
      )
      if (!matches || Option.isNone(user) || Option.isNone(stored) || user.value.disabledAt !== null || password.length > PASSWORD_MAX_LENGTH) {
        // The attempt's row stays: it is this failure.
        yield* Metric.increment(ServiceMetrics.signInFailures.invalidCredentials)
        return yield* new Unauthenticated({ message: INVALID_CREDENTIALS })
      }
      // This attempt's row with the others from this address; other addresses' stay (someone
      // else's guesses keep slowing this email until they leave the window or an admin unlocks).
      yield* failures.clear(normalized, client)
      return user.value
    })

  const withPassword = Effect.fn("SignIn.withPassword")(function* (email: string, password: string, client?: string, deviceCookie?: string) {
    // The cheap refusals first: the address's budget (memory), then a place in the hashing queue,
    // before the attempt costs a database write or an Argon2 operation.
    yield* guard.attempt(client)
    const normalized = normalizeEmail(email)
    const from = client ?? ""
    const millis = yield* Clock.currentTimeMillis
    const windowStart = formatTimestamp(failureWindowStart(millis))
    // An address that has used its failures for the email is refused at once (the admission in
    // the database decides for attempts that race this read).
    const mine = yield* failures.since(normalized, windowStart, from)
    if (mine.length >= SIGN_IN_FAILURE_LIMIT) return yield* limited(mine, millis)
    // A browser that signed in as this email before: the device lane, within the email's lane attempts.
    const lane: HashingLane = (yield* devices.holder(deviceCookie)) === normalized && (yield* guard.deviceLane(normalized)) ? "device" : "ordinary"
    if (lane === "ordinary") {
      // An email guessed at from many addresses: its attempts wait before they take a place in the
      // hashing queue (so waiting costs no hashing place), the right password's included.
      const delay = signInDelayMillis(yield* failures.count(normalized, windowStart))
      if (delay > 0) yield* Effect.sleep(delay)
    }
    const user = yield* guard.hashing(verifyAttempt(normalized, password, from), lane)
    yield* guard.succeeded(client)
    const memberships = yield* users.membershipsOf(user.id)
    return { user, memberships }
  })

  const withSso = yield* makeWithSso

  return SignIn.of({ withPassword, withSso })
})

export const layer = Layer.effect(SignIn, make)
