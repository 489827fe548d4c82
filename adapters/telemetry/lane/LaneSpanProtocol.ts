import type { MessagePort } from "node:worker_threads"

/**
 * The messages between the event loop and the lane spans' worker thread (LaneSpanWorkerBody.ts),
 * by structured clone (the spans' arrays transferred). The worker's body is shipped as source text and imports nothing: it
 * gets what it needs of these constants in its WorkerData.
 */

/** Fields of one span in `SpansMessage.numbers`, in this order. */
export const FIELDS = 5
/** A span's record: [route index, start, end (`performance.now()` of the event loop), status, parent sampled 1/0]. */
export type SpanRecord = readonly [route: number, start: number, end: number, status: number, parentSampled: number]

/** What the codec (LaneSpanCodec.ts) is made with. */
export interface CodecConfig {
  /** The Resource's attributes, as the Effect-side spans carry them (TracingSdk.ts). */
  readonly resource: Readonly<Record<string, string | number | boolean>>
  /** The instrumentation scope of the Effect-side tracer (the service's name and version). */
  readonly scope: { readonly name: string; readonly version?: string | undefined }
  /** The event loop's `performance.timeOrigin`: the records' times are relative to it. */
  readonly timeOrigin: number
  /** FIELDS and ID_BYTES. */
  readonly fields: number
  readonly idBytes: number
  /** Fills with random bytes (span ids). */
  readonly randomFill: (bytes: Uint8Array) => void
}

/** Spans as records: span `i` is `ids[i * ID_BYTES ..]` with `numbers[i * FIELDS ..]`. */
export interface Batch {
  readonly count: number
  readonly ids: Uint8Array
  readonly numbers: Float64Array
}

export interface LaneSpanCodec {
  /** Registers a route (RouteMessage). */
  readonly route: (index: number, name: string, attributes: Readonly<Record<string, string>>) => void
  /** An ExportTraceServiceRequest in protobuf, as the library's ProtobufTraceSerializer writes it. */
  readonly encode: (batches: ReadonlyArray<Batch>) => Uint8Array
  /** The same spans as ReadableSpans (for the library's JSON serializer), under `resource`. */
  readonly readableSpans: (batches: ReadonlyArray<Batch>, resource: unknown) => Array<unknown>
}

export interface WorkerData {
  /** Absolute paths of the packages the worker loads (it has no location to resolve them from). */
  readonly modules: {
    /** `@opentelemetry/otlp-exporter-base/node-http`: the library's OTLP/HTTP transport (headers, timeout, retries). */
    readonly exporterBase: string
    /** `@opentelemetry/otlp-transformer`: the JSON serializer (http/json). */
    readonly transformer: string
    readonly resources: string
  }
  /** The OTLP traces URL. */
  readonly url: string
  readonly protocol: "http/protobuf" | "http/json"
  /** The batch span processor's settings (OTEL_BSP_*: the exports' size and delay, the queue's bound). */
  readonly maxExportBatchSize: number
  readonly scheduledDelayMillis: number
  readonly maxQueueSize: number
  readonly codec: Omit<CodecConfig, "randomFill">
  /**
   * Int32 [0]: spans the worker has taken off its port (so the event loop bounds those in flight);
   * [1]: spans its queue had no room for (dropped).
   */
  readonly counts: Int32Array
  /** Where the worker answers (Ready, Failed, Flushed). */
  readonly replies: MessagePort
}

/** A traced route: its span's name and attributes, sent once, before any span that uses it. */
export interface RouteMessage {
  readonly _tag: "Route"
  readonly index: number
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
}

/** Bytes of a span's ids in `SpansMessage.ids`: the trace id (16), then the parent span id (8). */
export const ID_BYTES = 24

/**
 * Ended spans (a Batch of SpanRecords): two typed arrays, whose buffers are transferred (moved,
 * not copied), written by the event loop straight from each request's `traceparent` and clock.
 */
export interface SpansMessage extends Batch {
  readonly _tag: "Spans"
}

/** Export everything received so far (`close`: and stop the exporter), then answer `Flushed`. */
export interface FlushMessage {
  readonly _tag: "Flush"
  readonly id: number
  readonly close: boolean
}

export type Message = RouteMessage | SpansMessage | FlushMessage

export type Reply =
  | { readonly _tag: "Ready" }
  | { readonly _tag: "Failed"; readonly message: string }
  | { readonly _tag: "Flushed"; readonly id: number }
  /** An export the collector refused or never answered (after the transport's retries): its spans are lost. */
  | { readonly _tag: "ExportFailed"; readonly spans: number; readonly message: string }
