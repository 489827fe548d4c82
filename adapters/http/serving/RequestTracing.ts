/**
 * Tracing of the HttpApi app's requests as the handlers' runtime sets it up: @effect/platform's
 * tracer middleware when the services come with tracing on (adapters/telemetry/Tracing.ts), else
 * none at all; and the services' `ActiveTracing` carried into that runtime for the lane's spans.
 */
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ActiveTracing } from "../../telemetry/ActiveTracing.js"
import { TraceContext } from "../../../src/ports/TraceContext.js"
import { spanNameGenerator } from "./SpanNames.js"

/** Turns off the per-request tracing span (20-50% more throughput) when tracing is off. */
const tracerDisabled = Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true)

/** The sign-in callback carries the provider's one-time code in its query: its span would record it. */
const untraced = (request: HttpServerRequest.HttpServerRequest): boolean => request.url.startsWith(OIDC_CALLBACK)
const OIDC_CALLBACK = "/auth/oidc/callback"

/**
 * The HttpApi app's request spans (@effect/platform's tracer middleware, named `{method} {route}`
 * by SpanNames.ts: `http.route`, the status,
 * the incoming `traceparent` as parent) when the services come with tracing on
 * (adapters/telemetry/Tracing.ts), else none.
 */
export const requestTracing: Layer.Layer<never> = Layer.unwrapEffect(
  Effect.map(Effect.serviceOption(ActiveTracing), (tracing) =>
    Option.isSome(tracing)
      ? Layer.merge(
        Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, untraced),
        Layer.succeed(HttpMiddleware.SpanNameGenerator, spanNameGenerator())
      )
      : tracerDisabled)
)

/**
 * `ActiveTracing` of the services, when tracing is on, kept in the handlers' runtime, and the
 * `TraceContext` the writes read from the request's context (src/ports/TraceContext.ts).
 */
export const tracingOf: Layer.Layer<never> = Layer.unwrapEffect(
  Effect.map(
    Effect.all([Effect.serviceOption(ActiveTracing), Effect.serviceOption(TraceContext)]),
    ([tracing, traces]): Layer.Layer<never> =>
      Layer.mergeAll(
        Option.isSome(tracing) ? Layer.succeed(ActiveTracing, tracing.value) : Layer.empty,
        Option.isSome(traces) ? Layer.succeed(TraceContext, traces.value) : Layer.empty
      )
  )
)

