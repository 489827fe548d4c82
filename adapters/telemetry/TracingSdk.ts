/**
 * The OpenTelemetry SDK behind Tracing.ts, imported only when tracing is on: a Node tracer
 * provider with the configured sampler, a batch span processor and the OTLP/HTTP exporter
 * (protobuf or JSON), and Effect's tracer over it (@effect/opentelemetry).
 */
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import * as Resource from "@effect/opentelemetry/Resource"
import * as Tracer from "@effect/opentelemetry/Tracer"
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto"
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  SamplingDecision,
  TraceIdRatioBasedSampler
} from "@opentelemetry/sdk-trace-base"
import * as OtelApi from "@opentelemetry/api"
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { formatTraceParent, parseTraceParent } from "../../src/domain/tracing/TraceParent.js"
import { TraceContext } from "../../src/ports/TraceContext.js"
import * as DiagLog from "./DiagLog.js"
import { startLaneSpans, type LaneSpans } from "./lane/LaneSpans.js"
import { ActiveTracing, type ActiveTracingShape } from "./ActiveTracing.js"
import type { SamplerName, TracingSettings } from "./TracingSettings.js"

/**
 * The background workers' polling rounds: one a second each, mostly finding nothing to do. They are
 * not traced (nor what runs in them); the work they find is, each in a trace of its own
 * (`WebhookDispatcher.send`, `Scheduler.apply`, `ChangeRequests.applyDue`).
 */
export const QUIET_ROOTS: ReadonlySet<string> = new Set(["WebhookDispatcher.round", "WebhookDispatcher.tick", "Scheduler.tick"])

/**
 * `sampler`, except that a quiet root is dropped, and so is a span under a local parent that was
 * not sampled (whatever sampler was chosen: `always_on` would otherwise keep the orphaned children).
 */
export const withQuietRoots = (sampler: Sampler): Sampler => ({
  shouldSample: (context, traceId, spanName, spanKind, attributes, links) => {
    const parent = OtelApi.trace.getSpanContext(context)
    if (parent === undefined ? QUIET_ROOTS.has(spanName) : parent.isRemote !== true && (parent.traceFlags & OtelApi.TraceFlags.SAMPLED) === 0) {
      return { decision: SamplingDecision.NOT_RECORD }
    }
    return sampler.shouldSample(context, traceId, spanName, spanKind, attributes, links)
  },
  toString: () => `QuietRoots{${sampler.toString()}}`
})

/** The sampler OTEL_TRACES_SAMPLER names (the specification's names). */
export const samplerOf = (name: SamplerName, ratio: number): Sampler => {
  switch (name) {
    case "always_on":
      return new AlwaysOnSampler()
    case "always_off":
      return new AlwaysOffSampler()
    case "traceidratio":
      return new TraceIdRatioBasedSampler(ratio)
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() })
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() })
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) })
  }
}

/** The remote parent a W3C `traceparent` header names (version 00 and later, all-zero ids refused). */
export const parentOf = (traceparent: string): OtelApi.SpanContext | undefined => {
  const parsed = parseTraceParent(traceparent)
  if (parsed === undefined) return undefined
  return { traceId: parsed.traceId, spanId: parsed.spanId, traceFlags: parsed.sampled ? OtelApi.TraceFlags.SAMPLED : OtelApi.TraceFlags.NONE, isRemote: true }
}

/**
 * The current operation's outermost span in this process (a request's server span, a scheduled
 * apply's root), climbing from the current span past its local parents, as a `traceparent` when
 * it was sampled (TraceContext).
 */
export const currentOperation: Effect.Effect<string | null> = Effect.map(Effect.option(Effect.currentSpan), (current) => {
  if (Option.isNone(current)) return null
  let span = current.value
  while (Option.isSome(span.parent) && span.parent.value._tag === "Span") span = span.parent.value
  return span.sampled ? formatTraceParent({ traceId: span.traceId, spanId: span.spanId, sampled: true }) : null
})

/**
 * Whether a lane span under a remote parent is recorded: the decision the configured sampler
 * (`samplerOf`, behind `withQuietRoots`) makes for a server span whose parent came in a
 * `traceparent`, taken without building a context per request (test/telemetry/LaneSampling.test.ts
 * holds the two equal). The parent-based samplers follow the parent's sampled flag; the ratio
 * samplers look at the trace id, with the SDK's own ratio sampler.
 */
export const laneSampling = (name: SamplerName, ratio: number): (traceId: string, parentSampled: boolean) => boolean => {
  switch (name) {
    case "always_on":
      return () => true
    case "always_off":
      return () => false
    case "traceidratio": {
      const sampler = new TraceIdRatioBasedSampler(ratio)
      return (traceId) => sampler.shouldSample(OtelApi.ROOT_CONTEXT, traceId).decision === SamplingDecision.RECORD_AND_SAMPLED
    }
    case "parentbased_always_on":
    case "parentbased_always_off":
    case "parentbased_traceidratio":
      return (_, parentSampled) => parentSampled
  }
}

/** Lane spans (LaneTracing.ts) recorded by lane/LaneSpans.ts, under the parent a `traceparent` names, as the sampler decides. */
const serverSpansOf = (lane: LaneSpans, sampled: (traceId: string, parentSampled: boolean) => boolean): ActiveTracingShape["serverSpans"] =>
(name, attributes) => {
  const route = lane.route(name, attributes)
  return (traceparent) => lane.start(route, traceparent, sampled)
}

/** The attributes a lane span's Resource carries: those of the Effect-side spans' Resource. */
const plainAttributes = (attributes: OtelApi.Attributes): Record<string, string | number | boolean> => {
  const plain: Record<string, string | number | boolean> = {}
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") plain[key] = value
  }
  return plain
}

const SHUTDOWN_TIMEOUT = Duration.seconds(5)

export const layer = (settings: TracingSettings): Layer.Layer<ActiveTracing> =>
  Layer.unwrapEffect(
    Effect.sync(() => {
      const exporter = settings.protocol === "http/json" ? new JsonExporter({ url: settings.endpoint }) : new ProtobufExporter({ url: settings.endpoint })
      const provider = NodeSdk.layerTracerProvider(new BatchSpanProcessor(exporter), {
        sampler: withQuietRoots(samplerOf(settings.sampler, settings.samplerArg)),
        shutdownTimeout: SHUTDOWN_TIMEOUT
      })
      const resource = Resource.layerFromEnv(Resource.configToAttributes({ serviceName: settings.serviceName }))
      const tracer = Tracer.layer.pipe(Layer.provide(provider), Layer.provide(resource))
      const sampled = laneSampling(settings.sampler, settings.samplerArg)
      const active = Layer.scoped(
        ActiveTracing,
        Effect.gen(function* () {
          const tracer = yield* Tracer.OtelTracer
          const attributes = plainAttributes((yield* Resource.Resource).attributes)
          const lane = yield* Effect.acquireRelease(
            Effect.promise(() =>
              startLaneSpans({
                url: settings.endpoint,
                protocol: settings.protocol,
                resource: attributes,
                // The scope @effect/opentelemetry's tracer is made with (its Tracer layer).
                scope: { name: String(attributes[ATTR_SERVICE_NAME]), version: attributes[ATTR_SERVICE_VERSION] === undefined ? undefined : String(attributes[ATTR_SERVICE_VERSION]) }
              })
            ),
            (lane) => Effect.promise(() => lane.close(Duration.toMillis(SHUTDOWN_TIMEOUT)))
          )
          return ActiveTracing.of({ tracer, serverSpans: serverSpansOf(lane, sampled), laneSpansDropped: lane.dropped })
        })
      )
      return Layer.mergeAll(active, Layer.succeed(TraceContext, TraceContext.of({ current: currentOperation }))).pipe(
        Layer.provideMerge(Layer.merge(tracer, resource)),
        // First, so that what the exporters and the lane report while they start and stop is logged.
        Layer.provide(DiagLog.layer(settings.logLevel))
      )
    })
  )
