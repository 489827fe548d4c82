import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/**
 * The trace a write belongs to, kept with what the write leaves for later (a webhook event, sent
 * maybe by another process, maybe hours later), so that later work can link back to it. Provided
 * only when traces are exported (adapters/telemetry); absent, nothing is kept and nothing linked.
 */
export interface TraceContextShape {
  /**
   * The W3C `traceparent` of the operation running now: its outermost span in this process (a
   * management request's server span, a scheduled apply's), or null when it is not traced
   * (no span, or one the sampler dropped).
   */
  readonly current: Effect.Effect<string | null>
}

export class TraceContext extends Context.Tag("@flagport/ports/TraceContext")<TraceContext, TraceContextShape>() {}

/**
 * The current operation's `traceparent`, read from the caller's context (a request's runtime has
 * TraceContext when tracing is on, whatever the use case was built with); null without it.
 */
export const currentTraceParent: Effect.Effect<string | null> = Effect.flatMap(
  Effect.serviceOption(TraceContext),
  Option.match({ onNone: () => Effect.succeed(null), onSome: (traces) => traces.current })
)
