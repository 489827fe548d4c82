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
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { formatTraceParent, parseTraceParent } from "../../src/domain/webhooks/TraceParent.js"
import { TraceContext } from "../../src/ports/TraceContext.js"
import { ActiveTracing, type SamplerName, type ServerSpan, type TracingSettings } from "./Tracing.js"

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

const serverSpanOf = (tracer: OtelApi.Tracer) => (name: string, traceparent: string, attributes: OtelApi.Attributes): ServerSpan | undefined => {
  const parent = parentOf(traceparent)
  if (parent === undefined) return undefined
  const span = tracer.startSpan(name, { kind: OtelApi.SpanKind.SERVER, attributes }, OtelApi.trace.setSpanContext(OtelApi.ROOT_CONTEXT, parent))
  if (!span.isRecording()) return undefined
  return {
    end: (status) => {
      span.setAttribute("http.response.status_code", status)
      if (status >= 500) span.setStatus({ code: OtelApi.SpanStatusCode.ERROR })
      span.end()
    }
  }
}

export const layer = (settings: TracingSettings): Layer.Layer<ActiveTracing> =>
  Layer.unwrapEffect(
    Effect.sync(() => {
      const exporter = settings.protocol === "http/json" ? new JsonExporter({ url: settings.endpoint }) : new ProtobufExporter({ url: settings.endpoint })
      const provider = NodeSdk.layerTracerProvider(new BatchSpanProcessor(exporter), {
        sampler: withQuietRoots(samplerOf(settings.sampler, settings.samplerArg)),
        shutdownTimeout: "5 seconds"
      })
      const tracer = Tracer.layer.pipe(
        Layer.provide(provider),
        Layer.provide(Resource.layerFromEnv(Resource.configToAttributes({ serviceName: settings.serviceName })))
      )
      return Layer.mergeAll(
        Layer.effect(ActiveTracing, Effect.map(Tracer.OtelTracer, (tracer) => ActiveTracing.of({ tracer, serverSpan: serverSpanOf(tracer) }))),
        Layer.succeed(TraceContext, TraceContext.of({ current: currentOperation }))
      ).pipe(Layer.provideMerge(tracer))
    })
  )
