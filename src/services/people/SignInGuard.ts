/**
 * What keeps unauthenticated sign-in traffic from taking this process down (domain/people/SignInLoad.ts):
 * a budget of attempts per client address, and a bound on the Argon2 operations running and
 * waiting. Shared by password sign-ins (SignIn), setups (Users.setup) and the passwords admins set
 * (Users.create), so one queue bounds them all. In memory: it bounds this process's work.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import { RateLimited, ServiceUnavailable } from "../../domain/Errors.js"
import {
  type AddressBudget,
  BUSY_RETRY_AFTER_SECONDS,
  DEVICE_HASH_QUEUE,
  DEVICE_HASHES_IN_FLIGHT,
  DEVICE_RULE,
  giveBack,
  HASH_QUEUE,
  HASHES_IN_FLIGHT,
  isFull,
  takeAttempt
} from "../../domain/people/SignInLoad.js"
import { PasswordHasher } from "../../ports/PasswordHasher.js"
import * as ServiceMetrics from "../operations/ServiceMetrics.js"

export const SIGN_IN_BUSY = `Too many sign-ins at once; try again in ${BUSY_RETRY_AFTER_SECONDS} second.`

/** Budgets of addresses seen recently; swept of full ones when they grow past this (at least). */
const SWEEP_AT = 10_000

/**
 * Which hashing queue an attempt waits in: the ordinary one, or the device lane of a sign-in
 * presenting a valid device cookie for its email (domain/people/DeviceCookie.ts), which no
 * anonymous attempt can fill.
 */
export type HashingLane = "ordinary" | "device"

/** What `refuseNow` answers for an attempt it refuses: the address's budget is spent (429), or the hashing queue is full (503). */
export type Refused = { readonly _tag: "RateLimited"; readonly retryAfterSeconds: number } | { readonly _tag: "Busy" }

/** The 429's message. */
export const addressLimitedMessage = (retryAfterSeconds: number): string =>
  `Too many sign-in attempts from your address; try again in ${retryAfterSeconds} seconds.`

export interface SignInGuardShape {
  /**
   * Takes one attempt from the client address's budget; 429 `RateLimited` when it has none left.
   * `undefined` (no address known: a host calling the use case directly, the CLI) is not limited.
   */
  readonly attempt: (client: string | undefined) => Effect.Effect<void, RateLimited>
  /**
   * Refuses now what `attempt` and then `hashing` would refuse (the address has no attempt left:
   * 429; the hashing queue is full: 503, its attempt taken as `attempt` takes it), counted alike;
   * an attempt it lets through is not taken (the use case's `attempt` takes it). For a transport
   * to turn a flood away before it reads or decodes the request (adapters/http/serving/SignInFront.ts):
   * a refusal there costs microseconds, where the whole request costs the event loop a millisecond.
   * What passes still goes through `attempt` and `hashing`, which decide. `device`: the request
   * carries a device cookie with a valid signature (for some email: the body is not read yet); it
   * is not refused for load while the device lane has room (the use case then decides its lane).
   */
  readonly refusal: (client: string | undefined, device?: boolean) => Effect.Effect<void, RateLimited | ServiceUnavailable>
  /**
   * `refusal` as plain synchronous code, `nowMillis` from the caller (the clock the guard's
   * runtime has): what a transport calls for every request of a flood, where building an error,
   * a fiber and a span per refusal was most of its cost. Counted as `refusal` counts; undefined
   * when the attempt may go on.
   */
  readonly refuseNow: (client: string | undefined, device: boolean, nowMillis: number) => Refused | undefined
  /**
   * Whether a sign-in for `email` (normalized) presenting a valid device cookie for it takes the
   * device lane: the lane has room and the email has a lane attempt left (DEVICE_RULE), which this
   * takes. False sends it to the ordinary queue, as one without a cookie.
   */
  readonly deviceLane: (email: string) => Effect.Effect<boolean>
  /** Gives the attempt back (the sign-in succeeded). */
  readonly succeeded: (client: string | undefined) => Effect.Effect<void>
  /**
   * Runs `work` (which hashes or verifies one password) once one of the HASHES_IN_FLIGHT places is
   * free; 503 `ServiceUnavailable` at once, without running it, when HASH_QUEUE others are
   * already waiting. In the `device` lane, its own DEVICE_HASHES_IN_FLIGHT places and
   * DEVICE_HASH_QUEUE waiting (the ordinary queue when those are taken).
   */
  readonly hashing: <A, E, R>(work: Effect.Effect<A, E, R>, lane?: HashingLane) => Effect.Effect<A, E | ServiceUnavailable, R>
  /** The PasswordHasher's `hash`, counted (`flagport_password_hashes_total`); call it inside `hashing`. */
  readonly hash: (password: string) => Effect.Effect<string>
  /** The PasswordHasher's `verify`, counted; call it inside `hashing`. */
  readonly verify: (hash: string, password: string) => Effect.Effect<boolean>
}

const BUSY: Refused = { _tag: "Busy" }

export class SignInGuard extends Context.Tag("@flagport/services/SignInGuard")<SignInGuard, SignInGuardShape>() {}

export const make = Effect.gen(function* () {
  const hasher = yield* PasswordHasher
  // One map changed in place (each change a synchronous step, so none interleaves with another):
  // a copy per attempt, as a Ref of an immutable map would make, costs the event loop time in
  // proportion to the addresses seen, for every attempt of a flood from many addresses.
  const budgets = new Map<string, AddressBudget>()
  // Swept of full budgets when it grows past this, which then doubles past what the sweep kept:
  // a flood from more addresses than SWEEP_AT does not sweep on every attempt.
  let sweepAt = SWEEP_AT
  const places = yield* Effect.makeSemaphore(HASHES_IN_FLIGHT)
  // Running or waiting: reserved before the wait, so the queue's length is known without racing.
  // Plain numbers, each change one synchronous step (as the Refs they were), read at once by `refuseNow`.
  let admitted = 0
  const devicePlaces = yield* Effect.makeSemaphore(DEVICE_HASHES_IN_FLIGHT)
  let deviceAdmitted = 0
  // Emails' device lane attempts (few: only people with a device cookie reach it).
  const deviceBudgets = new Map<string, AddressBudget>()
  let deviceSweepAt = SWEEP_AT

  const rateLimited = (retryAfterSeconds: number) => new RateLimited({ message: addressLimitedMessage(retryAfterSeconds), retryAfterSeconds })
  const countAddressLimited = () => ServiceMetrics.signInFailures.addressLimited.unsafeUpdate(1, [])
  const countBusy = () => ServiceMetrics.signInFailures.busy.unsafeUpdate(1, [])
  const addressLimited = (retryAfterSeconds: number) =>
    Effect.zipRight(Metric.increment(ServiceMetrics.signInFailures.addressLimited), Effect.fail(rateLimited(retryAfterSeconds)))

  /** Takes one attempt from `client`'s budget: null, or the seconds to wait when there was none (nothing counted). */
  const takeNow = (client: string, now: number): number | null => {
    const taken = takeAttempt(budgets.get(client), now)
    if (taken.retryAfterSeconds !== null) return taken.retryAfterSeconds
    budgets.set(client, taken.budget)
    if (budgets.size > sweepAt) {
      for (const [address, budget] of budgets) if (isFull(budget, now)) budgets.delete(address)
      sweepAt = Math.max(SWEEP_AT, 2 * budgets.size)
    }
    return null
  }

  const attempt = Effect.fn("SignInGuard.attempt")(function* (client: string | undefined) {
    if (client === undefined) return
    const now = yield* Clock.currentTimeMillis
    const retryAfterSeconds = takeNow(client, now)
    if (retryAfterSeconds === null) return
    return yield* addressLimited(retryAfterSeconds)
  })

  const succeeded = (client: string | undefined) =>
    client === undefined
      ? Effect.void
      : Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => void budgets.set(client, giveBack(budgets.get(client), now))))

  const busyError = new ServiceUnavailable({ message: SIGN_IN_BUSY })
  const busy = Effect.zipRight(Metric.increment(ServiceMetrics.signInFailures.busy), Effect.fail(busyError))
  const CAPACITY = HASHES_IN_FLIGHT + HASH_QUEUE
  const reserve = Effect.sync(() => {
    if (admitted >= CAPACITY) return false
    admitted++
    return true
  })
  const release = Effect.sync(() => void admitted--)
  const DEVICE_CAPACITY = DEVICE_HASHES_IN_FLIGHT + DEVICE_HASH_QUEUE
  const reserveDevice = Effect.sync(() => {
    if (deviceAdmitted >= DEVICE_CAPACITY) return false
    deviceAdmitted++
    return true
  })
  const releaseDevice = Effect.sync(() => void deviceAdmitted--)
  const deviceRoom = Effect.sync(() => deviceAdmitted < DEVICE_CAPACITY)

  const deviceLane = (email: string): Effect.Effect<boolean> =>
    Effect.gen(function* () {
      if (!(yield* deviceRoom)) return false
      const now = yield* Clock.currentTimeMillis
      return yield* Effect.sync(() => {
        const taken = takeAttempt(deviceBudgets.get(email), now, DEVICE_RULE)
        if (taken.retryAfterSeconds !== null) return false
        deviceBudgets.set(email, taken.budget)
        if (deviceBudgets.size > deviceSweepAt) {
          for (const [key, budget] of deviceBudgets) if (isFull(budget, now, DEVICE_RULE)) deviceBudgets.delete(key)
          deviceSweepAt = Math.max(SWEEP_AT, 2 * deviceBudgets.size)
        }
        return true
      })
    })

  // Not a span of its own, nor an Effect: it runs for every request of a flood, and it is what keeps a flood cheap.
  const refuseNow = (client: string | undefined, device: boolean, now: number): Refused | undefined => {
    const laneOpen = device && deviceAdmitted < DEVICE_CAPACITY
    if (!laneOpen && admitted >= CAPACITY) {
      // As the use case would have it: the attempt is taken (429 when none is left), then
      // refused for load; so a flood from one address uses up its budget while the queue is full.
      const retryAfterSeconds = client === undefined ? null : takeNow(client, now)
      if (retryAfterSeconds !== null) {
        countAddressLimited()
        return { _tag: "RateLimited", retryAfterSeconds }
      }
      countBusy()
      return BUSY
    }
    if (client === undefined) return undefined
    const { retryAfterSeconds } = takeAttempt(budgets.get(client), now)
    if (retryAfterSeconds === null) return undefined
    countAddressLimited()
    return { _tag: "RateLimited", retryAfterSeconds }
  }
  const refusal = (client: string | undefined, device = false): Effect.Effect<void, RateLimited | ServiceUnavailable> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const refused = refuseNow(client, device, now)
      if (refused === undefined) return Effect.void
      return Effect.fail(refused._tag === "Busy" ? busyError : rateLimited(refused.retryAfterSeconds))
    })
  const ordinary = <A, E, R>(work: Effect.Effect<A, E, R>): Effect.Effect<A, E | ServiceUnavailable, R> =>
    Effect.acquireUseRelease(
      reserve,
      (reserved): Effect.Effect<A, E | ServiceUnavailable, R> => (reserved ? places.withPermits(1)(work) : busy),
      (reserved) => (reserved ? release : Effect.void)
    )

  const inDeviceLane = <A, E, R>(work: Effect.Effect<A, E, R>): Effect.Effect<A, E | ServiceUnavailable, R> =>
    Effect.acquireUseRelease(
      reserveDevice,
      (reserved): Effect.Effect<A, E | ServiceUnavailable, R> => (reserved ? devicePlaces.withPermits(1)(work) : ordinary(work)),
      (reserved) => (reserved ? releaseDevice : Effect.void)
    )

  const hashing = <A, E, R>(work: Effect.Effect<A, E, R>, lane: HashingLane = "ordinary"): Effect.Effect<A, E | ServiceUnavailable, R> =>
    (lane === "device" ? inDeviceLane(work) : ordinary(work)).pipe(Effect.withSpan("SignInGuard.hashing", { attributes: { lane } }))

  const counted = Metric.increment(ServiceMetrics.passwordHashes)
  const hash = (password: string) => Effect.zipRight(counted, hasher.hash(password))
  const verify = (stored: string, password: string) => Effect.zipRight(counted, hasher.verify(stored, password))

  return SignInGuard.of({ attempt, refusal, refuseNow, deviceLane, succeeded, hashing, hash, verify })
})

export const layer = Layer.effect(SignInGuard, make)
