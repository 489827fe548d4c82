import { expect, layer } from "@effect/vitest"
import { Clock, Effect, Layer, Option, TestClock } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { SESSION_LIFETIME_MS } from "../../src/domain/people/Session.js"
import { SessionRepository } from "../../src/ports/SessionRepository.js"
import { hashToken } from "../../src/services/people/PeopleSupport.js"
import { SessionIdleHours, Sessions } from "../../src/services/people/Sessions.js"
import { Users } from "../../src/services/people/Users.js"
import { nodeCrypto } from "../../adapters/crypto/NodeCrypto.js"
import { fresh, PASSWORD } from "./fixtures.js"

const HOUR = 60 * 60 * 1000

const givenSession = Effect.gen(function* () {
  const user = yield* (yield* Users).create({ email: `${fresh()}@example.com`, password: PASSWORD })
  const started = yield* (yield* Sessions).start(user.id)
  return { user, ...started }
})

const lastSeen = (token: string) =>
  Effect.flatMap(SessionRepository, (repo) => Effect.map(repo.find(hashToken(nodeCrypto, token)), Option.map((s) => s.lastSeenAt)))

layer(StorageLayer.memoryStorage)("Sessions", (it) => {
  it.effect("start: a 256-bit token, the absolute end 7 days on, the sign-in time recorded", () =>
    Effect.gen(function* () {
      yield* TestClock.adjust(HOUR)
      const now = yield* Clock.currentTimeMillis
      const { user, token, expiresAt } = yield* givenSession
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(expiresAt).toBe(new Date(now + SESSION_LIFETIME_MS).toISOString())
      expect((yield* (yield* Users).get(user.id)).lastSignInAt).toBe(new Date(now).toISOString())
      expect(yield* Effect.flip((yield* Sessions).start("no-such-user"))).toMatchObject({ _tag: "ResourceNotFound" })
    }))

  it.effect("idle longer than 12 hours: refused (and deleted); use keeps it alive; lastSeenAt refreshed at most once a minute", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const start = yield* Clock.currentTimeMillis
      const { token } = yield* givenSession
      yield* TestClock.adjust(30_000)
      expect(Option.isSome(yield* sessions.authenticate(token))).toBe(true)
      expect(yield* lastSeen(token)).toEqual(Option.some(new Date(start).toISOString()))
      yield* TestClock.adjust(30_000)
      expect(Option.isSome(yield* sessions.authenticate(token))).toBe(true)
      expect(yield* lastSeen(token)).toEqual(Option.some(new Date(start + 60_000).toISOString()))
      yield* TestClock.adjust(12 * HOUR)
      expect(Option.isSome(yield* sessions.authenticate(token))).toBe(true)
      yield* TestClock.adjust(12 * HOUR + 1)
      expect(yield* sessions.authenticate(token)).toEqual(Option.none())
      expect(yield* lastSeen(token)).toEqual(Option.none())
    }))

  it.effect("a recheck (an open stream asking again) is no use: lastSeenAt stays, and the session idles out", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const start = yield* Clock.currentTimeMillis
      const { token } = yield* givenSession
      for (let elapsed = 0; elapsed < 12 * HOUR; elapsed += HOUR) {
        yield* TestClock.adjust(HOUR)
        expect(Option.isSome(yield* sessions.authenticate(token, "recheck"))).toBe(true)
      }
      expect(yield* lastSeen(token)).toEqual(Option.some(new Date(start).toISOString()))
      yield* TestClock.adjust(1)
      expect(yield* sessions.authenticate(token, "recheck")).toEqual(Option.none())
    }))

  it.effect("used all along, a session still ends 7 days after sign-in", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const { token } = yield* givenSession
      for (let elapsed = 0; elapsed < SESSION_LIFETIME_MS - 10 * HOUR; elapsed += 10 * HOUR) {
        yield* TestClock.adjust(10 * HOUR)
        expect(Option.isSome(yield* sessions.authenticate(token))).toBe(true)
      }
      yield* TestClock.adjust(10 * HOUR)
      expect(yield* sessions.authenticate(token)).toEqual(Option.none())
    }))

  it.effect("a sign-in deletes the sessions past their absolute end (anyone's)", () =>
    Effect.gen(function* () {
      const old = yield* givenSession
      yield* TestClock.adjust(SESSION_LIFETIME_MS)
      yield* givenSession
      expect(yield* lastSeen(old.token)).toEqual(Option.none())
    }))

  it.effect("end and endAllFor", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const a = yield* givenSession
      const a2 = yield* sessions.start(a.user.id)
      const b = yield* givenSession
      yield* sessions.end(a.token)
      yield* sessions.end("unknown")
      expect(yield* sessions.authenticate(a.token)).toEqual(Option.none())
      expect(yield* sessions.endAllFor(a.user.id)).toBe(1)
      expect(yield* sessions.authenticate(a2.token)).toEqual(Option.none())
      expect(Option.isSome(yield* sessions.authenticate(b.token))).toBe(true)
    }))
})

layer(Layer.provide(StorageLayer.memoryStorage, Layer.succeed(SessionIdleHours, 1)))("Sessions with FLAGPORT_SESSION_IDLE_HOURS=1", (it) => {
  it.effect("the idle period is the configured one", () =>
    Effect.gen(function* () {
      const { token } = yield* givenSession
      yield* TestClock.adjust(HOUR + 1)
      expect(yield* (yield* Sessions).authenticate(token)).toEqual(Option.none())
    }))
})
