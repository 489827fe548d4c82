/**
 * What a process with tracing on offers the code outside Effect: the serving room reads it to
 * switch on the HttpApi app's request spans and the evaluation lane's spans (LaneTracing.ts). The
 * SDK's layer (TracingSdk.ts) provides it; absent when tracing is off.
 */
import type * as OtelApi from "@opentelemetry/api"
import * as Context from "effect/Context"

/** A span the evaluation lane started (LaneTracing.ts), ended with the answer's status. */
export interface ServerSpan {
  readonly end: (status: number) => void
}

export interface ActiveTracingShape {
  readonly tracer: OtelApi.Tracer
  /**
   * Registers a lane route's server span (`name`, `attributes`) once, and returns what starts one
   * per request: under the remote parent a W3C `traceparent` names, or `undefined` when the
   * header is malformed or the sampler drops it (nothing to end then). Recorded off the event
   * loop (lane/LaneSpans.ts), with the Resource and scope of the spans above.
   */
  readonly serverSpans: (name: string, attributes: Readonly<Record<string, string>>) => (traceparent: string) => ServerSpan | undefined
  /** Lane spans dropped so far because the exporter was behind (its queue at OTEL_BSP_MAX_QUEUE_SIZE). */
  readonly laneSpansDropped: () => number
}

export class ActiveTracing extends Context.Tag("@flagport/adapters/telemetry/ActiveTracing")<ActiveTracing, ActiveTracingShape>() {}
