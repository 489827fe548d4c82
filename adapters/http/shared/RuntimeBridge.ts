/**
 * How the plain-function hot paths (caches, authentication) call the Effect services: through the
 * runtime captured when their layer is built, answering a promise that rejects with the domain
 * failure itself, or with `Defect` for anything else (kept whole for the log).
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
/** A defect (not a domain failure) from a service call, kept whole for the log. */
export class Defect extends Error {
  constructor(override readonly cause: Cause.Cause<unknown>) {
    super(Cause.pretty(cause))
  }
}

export interface RuntimeBridge {
  /** Runs a service call: its value, or a rejection with its failure (or a `Defect`). */
  readonly run: <A, E>(effect: Effect.Effect<A, E>) => Promise<A>
  /** Logs the cause of a 500 (the response itself leaks nothing). */
  readonly logInternal: (cause: unknown) => void
}

export const runtimeBridge: Effect.Effect<RuntimeBridge> = Effect.map(Effect.runtime<never>(), (runtime) => {
  const runExit = Runtime.runPromiseExit(runtime)
  return {
    run: <A, E>(effect: Effect.Effect<A, E>): Promise<A> =>
      runExit(effect).then((exit) => {
        if (Exit.isSuccess(exit)) return exit.value
        const failure = Cause.failureOption(exit.cause)
        throw Option.isSome(failure) ? failure.value : new Defect(exit.cause)
      }),
    logInternal: (cause: unknown) => {
      Runtime.runFork(runtime)(
        Effect.logError("Internal error while answering an evaluation request", cause instanceof Defect ? cause.cause : Cause.die(cause))
      )
    }
  }
})
