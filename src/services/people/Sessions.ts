/**
 * Signed-in sessions (docs/guide/people.md, "Sign-in and sessions"): a 256-bit random token in the
 * cookie, only its SHA-256 hash in the database. Every request looks its session up (no cache),
 * so a sign-out, a disabled user or a reset on one process is refused by every process at once.
 */
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import type { ConfigError } from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { formatTimestamp } from "../../domain/definitions/Ids.js"
import type { ResourceNotFound } from "../../domain/Errors.js"
import { userNotFound } from "../../domain/NotFound.js"
import { DEFAULT_SESSION_IDLE_HOURS, sessionExpiresAt, sessionIsLive, sessionNeedsTouch } from "../../domain/people/Session.js"
import type { UserWithMemberships } from "../../domain/people/User.js"
import { Crypto } from "../../ports/Crypto.js"
import { SessionRepository } from "../../ports/SessionRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { Transactor } from "../../ports/Transactor.js"
import { UserRepository } from "../../ports/UserRepository.js"
import { hashToken, newToken } from "./PeopleSupport.js"

/** FLAGPORT_SESSION_IDLE_HOURS as the use cases read it when they are built (default 12). */
export class SessionIdleHours extends Context.Reference<SessionIdleHours>()("@flagport/services/SessionIdleHours", {
  defaultValue: (): number => DEFAULT_SESSION_IDLE_HOURS
}) {}

/** FLAGPORT_SESSION_IDLE_HOURS: a positive number of hours (default 12). */
export const sessionIdleHoursConfig: Config.Config<number> = Config.number("FLAGPORT_SESSION_IDLE_HOURS").pipe(
  Config.validate({ message: "Expected a positive number of hours", validation: (hours) => hours > 0 && Number.isFinite(hours) }),
  Config.withDefault(DEFAULT_SESSION_IDLE_HOURS)
)

/** The idle period from the environment; fails at start on a bad FLAGPORT_SESSION_IDLE_HOURS. */
export const idleLayerConfig: Layer.Layer<never, ConfigError> = Layer.unwrapEffect(
  Effect.map(sessionIdleHoursConfig, (hours) => Layer.succeed(SessionIdleHours, hours))
)

/** Why a session is looked up: a request the person made (activity), or a recheck of an open stream (none). */
export type SessionUse = "request" | "recheck"

export interface SessionsShape {
  /**
   * Starts a session for the user (a sign-in: their `lastSignInAt` is set): the token for the
   * cookie, returned this once, and the session's absolute end. 404 for an unknown user.
   */
  readonly start: (
    userId: string
  ) => Effect.Effect<{ readonly token: string; readonly expiresAt: string }, ResourceNotFound | StorageError>
  /**
   * The signed-in person of a token with their memberships; none for an unknown or ended session,
   * one idle longer than the idle period or older than 7 days (deleted then), or a disabled user.
   * A use of the session refreshes `lastSeenAt` (at most once a minute); a look that is no use of
   * it (`use: "recheck"`: an open stream asking whether its session still holds) leaves it, so
   * an open tab alone does not keep its session alive, and the stream ends with the idle session.
   */
  readonly authenticate: (token: string, use?: SessionUse) => Effect.Effect<Option.Option<UserWithMemberships>, StorageError>
  /** Ends the session of this token (a sign-out); nothing happens for an unknown token. */
  readonly end: (token: string) => Effect.Effect<void, StorageError>
  /** Ends every session of the user; answers how many there were. */
  readonly endAllFor: (userId: string) => Effect.Effect<number, StorageError>
}

export class Sessions extends Context.Tag("@flagport/services/Sessions")<Sessions, SessionsShape>() {}

export const make = Effect.gen(function* () {
  const sessions = yield* SessionRepository
  const users = yield* UserRepository
  const crypto = yield* Crypto
  const tx = yield* Transactor
  const idleMillis = (yield* SessionIdleHours) * 60 * 60 * 1000

  const start = Effect.fn("Sessions.start")(function* (userId: string) {
    const token = newToken(crypto)
    const millis = yield* Clock.currentTimeMillis
    const now = formatTimestamp(millis)
    const expiresAt = formatTimestamp(sessionExpiresAt(millis))
    yield* tx.withTransaction(
      Effect.gen(function* () {
        // Housekeeping at each sign-in: sessions past their absolute end are of no use to anyone
        // (idle ones are deleted when next presented).
        yield* sessions.deleteExpired(now)
        const user = yield* users.get(userId)
        if (Option.isNone(user)) return yield* userNotFound(userId)
        yield* users.update({ ...user.value, lastSignInAt: now }).pipe(Effect.catchTags({ NotFound: () => userNotFound(userId), DuplicateKey: Effect.die }))
        yield* sessions
          .insert({ hash: hashToken(crypto, token), userId, createdAt: now, lastSeenAt: now, expiresAt })
          .pipe(Effect.catchTag("DuplicateKey", Effect.die)) // 256 random bits do not collide
      })
    )
    return { token, expiresAt }
  })

  const authenticate = Effect.fn("Sessions.authenticate")(function* (token: string, use: SessionUse = "request") {
    if (token.length === 0) return Option.none<UserWithMemberships>()
    const hash = hashToken(crypto, token)
    const found = yield* sessions.find(hash)
    if (Option.isNone(found)) return Option.none<UserWithMemberships>()
    const session = found.value
    const millis = yield* Clock.currentTimeMillis
    if (!sessionIsLive(session, millis, idleMillis)) {
      yield* sessions.delete(hash)
      return Option.none<UserWithMemberships>()
    }
    const user = yield* users.get(session.userId)
    if (Option.isNone(user) || user.value.disabledAt !== null) return Option.none<UserWithMemberships>()
    if (use === "request" && sessionNeedsTouch(session, millis)) yield* sessions.touch(hash, formatTimestamp(millis))
    const memberships = yield* users.membershipsOf(session.userId)
    return Option.some<UserWithMemberships>({ user: user.value, memberships })
  })

  const end = Effect.fn("Sessions.end")(function* (token: string) {
    yield* sessions.delete(hashToken(crypto, token))
  })

  const endAllFor = Effect.fn("Sessions.endAllFor")(function* (userId: string) {
    return yield* sessions.deleteForUser(userId)
  })

  return Sessions.of({ start, authenticate, end, endAllFor })
})

export const layer = Layer.effect(Sessions, make)
