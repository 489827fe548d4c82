/**
 * How a handler calls a use case: as its caller (`CurrentCaller`, and `CurrentActor` as the audit
 * log records it: the key or the signed-in person the security middleware authenticated), with the
 * service's failures turned into their envelopes.
 */
import * as Effect from "effect/Effect"
import { actingAs } from "../../../src/domain/auth/Caller.js"
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
