/**
 * What a command has done so far, for the one line it prints when a signal stops it. Ctrl-C
 * (SIGINT) or SIGTERM interrupt the running command (Main.ts); it then exits 130 or 143 with
 * `interrupted by SIGINT: <what was and was not done>` on stderr, so a script or a CI job never
 * reads an interrupted command as a success.
 *
 * A command says what an interruption would leave (`say`) as it goes. A change and the printing
 * of its result are carried out whole once begun (`whole`): each is one transaction of a use case,
 * short and bounded, so a signal meanwhile waits for it, and the line then says what was done,
 * never "maybe". A second Ctrl-C ends the process at once (the first one's handlers are gone).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"

export interface ProgressState {
  /** What the line says if a signal stops the command now. */
  readonly line: string
  /** `serve`: a signal is how it is meant to stop (a graceful shutdown, exit 0, no line). */
  readonly stopsOnSignal: boolean
}

export class Progress extends Context.Tag("flagport/cli/Progress")<Progress, Ref.Ref<ProgressState>>() {}

/** Until a command says otherwise: true of a command interrupted before it wrote anything. */
export const NOTHING_CHANGED = "nothing was changed"

export const initialState: ProgressState = { line: NOTHING_CHANGED, stopsOnSignal: false }

/** From now on, an interruption says `line`. */
export const say = (line: string): Effect.Effect<void, never, Progress> =>
  Effect.flatMap(Progress, (state) => Ref.update(state, (current) => ({ ...current, line })))

/**
 * Runs `effect` (a write and the printing of what it wrote) without interruption, then records
 * what it did: a signal arriving meanwhile is acted on after it, with `done`'s line.
 */
export const whole = <A, E, R>(effect: Effect.Effect<A, E, R>, done: (value: A) => string): Effect.Effect<A, E, R | Progress> =>
  Effect.uninterruptible(Effect.tap(effect, (value) => say(done(value))))

/** For `serve`: stopped by a signal, it shuts down gracefully and exits 0. */
export const stopsOnSignal: Effect.Effect<void, never, Progress> = Effect.flatMap(Progress, (state) =>
  Ref.update(state, (current) => ({ ...current, stopsOnSignal: true }))
)

/** The exit code of a process stopped by a signal, as shells report it: 128 + the signal's number. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const

export type StopSignal = keyof typeof SIGNAL_EXIT_CODES
