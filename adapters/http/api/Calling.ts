/**
 * How a handler calls a use case: as its caller (`CurrentCaller`, and `CurrentActor` as the audit
 * log records it: the key or the signed-in person the security middleware authenticated), with the
 * service's failures turned into their envelopes.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { actingAs } from "../../../src/domain/auth/Caller.js"
import type { Forbidden } from "../../../src/domain/Errors.js"
import { flagSeen } from "../../../src/domain/auth/EnvironmentView.js"
import * as Policy from "../../../src/domain/auth/Policy.js"
import * as Errors from "../shared/Errors.js"
import { ManagementAccess } from "./Security.js"

type StorageFailure = Extract<Errors.ServiceError, { readonly _tag: "StorageError" }>

const isStorageError = (error: Errors.ServiceError): error is StorageFailure => error._tag === "StorageError"

/**
 * Runs a use case as the authenticated caller (`CurrentCaller`), which decides what it may do; its
 * writes are recorded in the audit log with the key or the person that made them (`CurrentActor`).
 * Every management handler calls its use case through `mapped`, which applies this, so no call can
 * miss its caller.
 */
export const asCaller = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | ManagementAccess> =>
  Effect.flatMap(ManagementAccess, (access) => actingAs(access.caller, access.actor)(effect))

/**
 * Service failures as their envelopes, typed by `Errors.EnvelopeOf`: the endpoint must declare
 * each envelope the call can produce. A storage failure is not the caller's fault: it becomes a
 * defect, which the error middleware (Middleware.ts) logs with its cause and answers 500, so
 * every 500 of the HttpApi app is logged in that one place. The call runs as the caller (`asCaller`).
 */
export const mapped = <A, E extends Errors.ServiceError, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Errors.EnvelopeOf<Exclude<E, StorageFailure>>, R | ManagementAccess> => asEnvelopes(asCaller(effect))

/** `mapped` for the evaluation side and the sign-in routes, whose callers have no actor yet. */
export const asEnvelopes = <A, E extends Errors.ServiceError, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Errors.EnvelopeOf<Exclude<E, StorageFailure>>, R> =>
  effect.pipe(Effect.catchIf(isStorageError, Effect.die), Effect.mapError(Errors.fromDomain))

/** 403 with the policy's own message unless `decide` allows the caller of the request. */
export const allowedBy = (decide: (caller: typeof ManagementAccess.Service["caller"]) => Either.Either<void, Forbidden>) =>
  Effect.flatMap(ManagementAccess, (access) =>
    Either.match(decide(access.caller), {
      onLeft: (denied) => Effect.fail(Errors.forbidden(denied.message)),
      onRight: () => Effect.void
    }))

/** 403 unless the caller may write `environment`'s configuration (Policy.authorizeEnvironmentWrite). */
export const mayWrite = (environment: string) => allowedBy((caller) => Policy.authorizeEnvironmentWrite(caller, environment))

/** A read naming one environment's configuration: a bound key only its own (Policy.authorizeEnvironmentRead). */
export const mayRead = (environment: string) => allowedBy((caller) => Policy.authorizeEnvironmentRead(caller, environment))

/** A read of every environment's configuration: no bound key (Policy.authorizeAllEnvironmentsRead). */
export const mayReadAll = allowedBy((caller) => Policy.authorizeAllEnvironmentsRead(caller))

/** A write of what every environment serves: no bound key (Policy.authorizeAllEnvironmentsWrite). */
export const mayWriteAll = allowedBy((caller) => Policy.authorizeAllEnvironmentsWrite(caller))

/**
 * The environment the caller sees (EnvironmentView.ts): null for people and unbound keys, else
 * the one its key is bound to. Answers holding several environments are narrowed to it.
 */
export const seenEnvironment = Effect.map(ManagementAccess, (access) => Policy.boundEnvironment(access.caller))

/** A flag as the caller sees it: a bound key's answer holds its own environment's configuration only. */
export const flagAsSeen = <F extends { readonly configs: ReadonlyArray<{ readonly environmentKey: string }> }>(flag: F) =>
  Effect.map(seenEnvironment, (seen) => flagSeen(seen, flag))
