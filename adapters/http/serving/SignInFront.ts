/**
 * A sign-in flood turned away at the door (docs/guide/people.md, "Sign-in under load"). The
 * sign-in guard (src/services/people/SignInGuard.ts) refuses an address that has used its
 * attempts (429) and any attempt while the password hashing queue is full (503); answered by the
 * HttpApi app, each such refusal still cost the event loop about a millisecond (routing, the body
 * read and decoded, the middlewares, the error's envelope), and a flood's 100 requests arriving at
 * once held `/health` and evaluations back by a tenth of a second or more (docs/operations/benchmarks.md,
 * "Sign-in flood"). Here the transports ask the guard first, from the headers alone, and write
 * its refusal at once, as the app would have written it; an attempt the guard would let through
 * goes on to the app, whose use case takes the attempt and decides.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import { BUSY_RETRY_AFTER_SECONDS } from "../../../src/domain/people/SignInLoad.js"
import { DeviceTrust } from "../../../src/services/people/DeviceTrust.js"
import { addressLimitedMessage, SIGN_IN_BUSY, SignInGuard } from "../../../src/services/people/SignInGuard.js"
import { Authentication } from "../shared/Authentication.js"
import { anyDeviceCookieOf } from "../shared/DeviceCookieHeader.js"
import type { LaneResponse } from "../shared/EvaluationLaneService.js"
import * as Errors from "../shared/Errors.js"
import { clientAddress } from "../shared/TrustProxy.js"

/** The routes that hash a password for anyone who asks (the guard's attempts and queue bound them). */
const GUARDED = new Set(["/v1/auth/login", "/v1/auth/setup"])

export interface SignInFrontShape {
  /**
   * The guard's refusal of this request, when it is a sign-in or setup the guard refuses now;
   * undefined otherwise (any other route, or an attempt that may go on). `peer`: the socket's
   * address; `forwardedFor`: its `X-Forwarded-For` (believed as the app believes it); `cookie`: its
   * `Cookie` header, whose device cookie, when validly signed, spares it a refusal for load while
   * the device lane has room (the use case then decides its lane, by the email).
   */
  readonly refusal: (
    method: string,
    path: string,
    peer: string | undefined,
    forwardedFor: string | undefined,
    cookie?: string | undefined
  ) => LaneResponse | undefined
}

export class SignInFront extends Context.Tag("@flagport/http/SignInFront")<SignInFront, SignInFrontShape>() {}

/** The 503 as the sign-in handlers answer it (AuthLive.ts): the envelope and `Retry-After`, the same bytes every time. */
const BUSY_ANSWER: LaneResponse = {
  status: 503,
  headers: { "content-type": "application/json", "retry-after": String(BUSY_RETRY_AFTER_SECONDS) },
  body: JSON.stringify(Errors.envelopeOf(Errors.unavailable(SIGN_IN_BUSY)))
}

/** The 429s by their `Retry-After` (a few distinct values: a budget refills within seconds), built once each. */
const limitedAnswers = new Map<number, LaneResponse>()
const limitedAnswer = (retryAfterSeconds: number): LaneResponse => {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds))
  let answer = limitedAnswers.get(seconds)
  if (answer === undefined) {
    answer = {
      status: 429,
      headers: { "content-type": "application/json", "retry-after": String(seconds) },
      body: JSON.stringify({ error: Errors.signInLimited(addressLimitedMessage(retryAfterSeconds)).error })
    }
    if (limitedAnswers.size < 1_000) limitedAnswers.set(seconds, answer)
  }
  return answer
}

export const make = Effect.gen(function* () {
  const guard = yield* SignInGuard
  const auth = yield* Authentication
  const devices = yield* DeviceTrust
  // The signing key, read now, so that checking a cookie below needs no I/O (a failed read: no
  // cookie passes here until the use case, which reads it again, has loaded it).
  yield* Effect.ignore(devices.ready)
  // Checking a device cookie is memory only (no I/O): it runs to its end synchronously.
  const runSync = Runtime.runSyncExit(yield* Effect.runtime<never>())
  // The runtime's clock (a test's TestClock), read without a fiber.
  const clock = yield* Effect.clock
  return SignInFront.of({
    refusal: (method, path, peer, forwardedFor, cookie) => {
      if (method !== "POST" || !GUARDED.has(path)) return undefined
      const device = anyDeviceCookieOf(cookie)
      const held = device === undefined ? undefined : runSync(devices.holder(device))
      const trusted = held !== undefined && Exit.isSuccess(held) && held.value !== undefined
      // Plain code, no fiber, no error object: the guard's own synchronous check.
      const refused = guard.refuseNow(clientAddress(auth.people.settings.trustProxy, peer, forwardedFor), trusted, clock.unsafeCurrentTimeMillis())
      if (refused === undefined) return undefined
      return refused._tag === "Busy" ? BUSY_ANSWER : limitedAnswer(refused.retryAfterSeconds)
    }
  })
})

export const layer = Layer.effect(SignInFront, make)
