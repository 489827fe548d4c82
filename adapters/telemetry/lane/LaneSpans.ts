/**
 * The evaluation lane's spans with tracing on (docs/internals/decisions.md, "Lane spans off the SDK"): the
 * SDK's per-span work (a Span object, attribute copies, clock conversions, the batch processor,
 * the OTLP encoding of objects) cost the lane about a fifth of its throughput when every request
 * was traced. Here the event loop only checks the request's `traceparent` (no string made), keeps
 * a compact record per span (the ids' 24 bytes read from the header, the route, two clock reads,
 * the status) in typed arrays, and posts (transfers) them in batches to a worker thread
 * (LaneSpanWorkerBody.ts), which batches them as the SDK's BatchSpanProcessor would, encodes them
 * (LaneSpanCodec.ts) and sends them with the library's OTLP/HTTP transport, with the Resource and
 * scope of the Effect-side spans.
 *
 * Bounded: spans posted and not yet taken by the worker are at most OTEL_BSP_MAX_QUEUE_SIZE
 * (default 2048), and so are those queued in the worker; past that spans are dropped and counted
 * (`dropped`), as the batch processor does, with a warning through OpenTelemetry's `diag`, where a
 * failed export is reported too (DiagLog.ts writes `diag` to the server's log). `close` flushes.
 */
import { createRequire } from "node:module"
import { MessageChannel, Worker } from "node:worker_threads"
import * as OtelApi from "@opentelemetry/api"
import { laneSpanCodec } from "./LaneSpanCodec.js"
import { HEX_VALUE, traceParentFlags } from "../../../src/domain/tracing/TraceParent.js"
import { type CodecConfig, FIELDS, ID_BYTES, type Message, type Reply, type WorkerData } from "./LaneSpanProtocol.js"
import { laneSpanWorkerBody } from "./LaneSpanWorkerBody.js"
import type { ServerSpan } from "../ActiveTracing.js"
import type { OtlpProtocol } from "../TracingSettings.js"

export interface LaneSpanOptions {
  readonly url: string
  readonly protocol: OtlpProtocol
  readonly resource: CodecConfig["resource"]
  readonly scope: CodecConfig["scope"]
  /** Spans kept on the event loop before a batch is posted (default 512, the default export's size: one wake-up of the worker per export). */
  readonly batchSize?: number
  /** How long a batch that is not full waits before it is posted, in ms (default 200). */
  readonly delayMs?: number
  /** The batch processor's settings (defaults: OTEL_BSP_MAX_QUEUE_SIZE, _MAX_EXPORT_BATCH_SIZE, _SCHEDULE_DELAY, or 2048, 512, 5000 ms). */
  readonly maxQueueSize?: number
  readonly maxExportBatchSize?: number
  readonly scheduledDelayMillis?: number
}

export interface LaneSpans {
  /** Registers a route's span name and attributes (once per route); the index names it in `start`. */
  readonly route: (name: string, attributes: Readonly<Record<string, string>>) => number
  /**
   * Starts a span of route `route` under the remote parent a W3C `traceparent` names, unless the
   * header is malformed or `sampled` (the sampler's decision for the trace id and the parent's
   * sampled flag; default: keep every span) drops it.
   */
  readonly start: (route: number, traceparent: string, sampled?: (traceId: string, parentSampled: boolean) => boolean) => ServerSpan | undefined
  /** Spans dropped because the worker was behind or its queue full. */
  readonly dropped: () => number
  /** Posts what is batched and waits until the worker has exported everything. */
  readonly flush: () => Promise<void>
  /** Flushes (waiting at most `timeoutMs`, default 5000) and ends the worker. */
  readonly close: (timeoutMs?: number) => Promise<void>
}

/**
 * What a transpiler may have put into the worker body's text that only exists in the module it
 * came from: esbuild with `keepNames` (as tsx runs) wraps named functions in `__name(fn, "name")`
 * (the same as for the SQLite worker, SqliteWorker.ts).
 */
const TRANSPILER_HELPERS = "var __name = (target) => target;"

/**
 * The packages' absolute paths, from this module's location (see SqliteWorker.ts's resolveDriver):
 * the OTLP exporter's own transport and serializers, found from the exporter package we depend on.
 */
const resolveModules = (): WorkerData["modules"] => {
  const here = typeof __filename === "string" ? createRequire(__filename) : createRequire(import.meta.url)
  const exporter = createRequire(here.resolve("@opentelemetry/exporter-trace-otlp-proto"))
  return {
    exporterBase: exporter.resolve("@opentelemetry/otlp-exporter-base/node-http"),
    transformer: exporter.resolve("@opentelemetry/otlp-transformer"),
    resources: here.resolve("@opentelemetry/resources")
  }
}

/** An OTEL_BSP_* setting, as the SDK reads it (a positive number, else the default). */
const fromEnv = (name: string, fallback: number): number => {
  const raw = Number(process.env[name])
  return Number.isFinite(raw) && raw > 0 ? raw : fallback
}

/** How long at least between two warnings of dropped spans. */
const WARN_EVERY_MS = 5_000

/** A started span: one small object holding its parent's header (checked), ended once with the answer's status. */
class LaneSpan implements ServerSpan {
  private readonly started = performance.now()
  private ended = false
  constructor(
    private readonly sink: Batcher,
    private readonly routeIndex: number,
    private readonly traceparent: string,
    private readonly parentSampled: boolean
  ) {}
  end(status: number): void {
    if (this.ended) return
    this.ended = true
    this.sink.add(this.routeIndex, this.traceparent, this.parentSampled, this.started, status)
  }
}

/** The records waiting on the event loop, posted to the worker a batch at a time. */
class Batcher {
  private count = 0
  private ids: Uint8Array
  private numbers: Float64Array
  private timer: ReturnType<typeof setTimeout> | undefined = undefined
  private posted = 0
  dropped = 0
  private warned = 0
  private warnedAt: number | undefined = undefined
  dead = false

  constructor(
    private readonly worker: Worker,
    /** [0] spans the worker took, [1] spans it dropped (WorkerData.counts). */
    private readonly counts: Int32Array,
    private readonly batchSize: number,
    private readonly delayMs: number,
    private readonly maxQueueSize: number
  ) {
    this.ids = new Uint8Array(batchSize * ID_BYTES)
    this.numbers = new Float64Array(batchSize * FIELDS)
  }

  /** A span's record: its ids' bytes straight from the header's hex (trace id at 3, parent id at 36; checked by traceParentFlags first, so every digit has a value), and its numbers. */
  add(route: number, traceparent: string, parentSampled: boolean, started: number, status: number): void {
    const i = this.count++
    const ids = this.ids
    let b = i * ID_BYTES
    for (let c = 3; c < 35; c += 2) ids[b++] = (HEX_VALUE[traceparent.charCodeAt(c)]! << 4) | HEX_VALUE[traceparent.charCodeAt(c + 1)]!
    for (let c = 36; c < 52; c += 2) ids[b++] = (HEX_VALUE[traceparent.charCodeAt(c)]! << 4) | HEX_VALUE[traceparent.charCodeAt(c + 1)]!
    const at = i * FIELDS
    const numbers = this.numbers
    numbers[at] = route
    numbers[at + 1] = started
    numbers[at + 2] = performance.now()
    numbers[at + 3] = status
    numbers[at + 4] = parentSampled ? 1 : 0
    if (this.count === this.batchSize) this.post()
    else if (this.timer === undefined) this.timer = setTimeout(() => this.post(), this.delayMs).unref()
  }

  post(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    const count = this.count
    if (count === 0) return
    const ids = this.ids
    const numbers = this.numbers
    this.count = 0
    this.ids = new Uint8Array(this.batchSize * ID_BYTES)
    this.numbers = new Float64Array(this.batchSize * FIELDS)
    if (this.dead || this.posted - Atomics.load(this.counts, 0) + count > this.maxQueueSize) {
      this.dropped += count
      this.warnDropped()
      return
    }
    this.warnDropped()
    this.posted += count
    this.send({ _tag: "Spans", count, ids, numbers }, [ids.buffer as ArrayBuffer, numbers.buffer as ArrayBuffer])
  }

  /**
   * One warning for the spans dropped since the last, at most every WARN_EVERY_MS: a collector that
   * stays down drops spans on every batch, and one line per batch would flood the log.
   */
  private warnDropped(): void {
    const dropped = this.dropped + Atomics.load(this.counts, 1)
    if (dropped === this.warned) return
    const now = performance.now()
    if (this.warnedAt !== undefined && now - this.warnedAt < WARN_EVERY_MS) return
    OtelApi.diag.warn(`Dropped ${dropped - this.warned} evaluation-lane spans because maxQueueSize reached`)
    this.warned = dropped
    this.warnedAt = now
  }

  send(message: Message, transfer: ReadonlyArray<ArrayBuffer> = []): void {
    this.worker.postMessage(message, transfer as Array<ArrayBuffer>)
  }
}

/**
 * Starts the worker; resolves once it has loaded the exporter (rejects if it could not). The
 * worker never keeps the process alive, except while `flush` or `close` waits for it.
 */
export const startLaneSpans = async (options: LaneSpanOptions): Promise<LaneSpans> => {
  const channel = new MessageChannel()
  const counts = new Int32Array(new SharedArrayBuffer(8))
  const maxQueueSize = options.maxQueueSize ?? fromEnv("OTEL_BSP_MAX_QUEUE_SIZE", 2048)
  const workerData: WorkerData = {
    modules: resolveModules(),
    url: options.url,
    protocol: options.protocol,
    maxQueueSize,
    maxExportBatchSize: Math.min(maxQueueSize, options.maxExportBatchSize ?? fromEnv("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512)),
    scheduledDelayMillis: options.scheduledDelayMillis ?? fromEnv("OTEL_BSP_SCHEDULE_DELAY", 5000),
    codec: { resource: options.resource, scope: options.scope, timeOrigin: performance.timeOrigin, fields: FIELDS, idBytes: ID_BYTES },
    counts,
    replies: channel.port2
  }
  const worker = new Worker(`${TRANSPILER_HELPERS}\n(${String(laneSpanWorkerBody)})(require, ${String(laneSpanCodec)})`, {
    eval: true,
    workerData,
    transferList: [channel.port2]
  })
  const replies = channel.port1
  // A batch never larger than the bound, which would refuse it whole.
  const batcher = new Batcher(worker, counts, Math.min(options.batchSize ?? 512, maxQueueSize), options.delayMs ?? 200, maxQueueSize)
  const flushes = new Map<number, () => void>()
  let nextFlush = 0
  let failure: Error | undefined
  let onReady: ((error?: Error) => void) | undefined

  const fail = (error: Error) => {
    failure ??= error
    batcher.dead = true
    onReady?.(error)
    for (const done of flushes.values()) done()
    flushes.clear()
  }
  replies.on("message", (reply: Reply) => {
    switch (reply._tag) {
      case "Ready":
        return onReady?.()
      case "Failed":
        return fail(new Error(`lane spans' exporter: ${reply.message}`))
      case "ExportFailed":
        // As the SDK's batch processor reports a failed export (its global error handler).
        return OtelApi.diag.error(`Evaluation-lane spans' export failed, ${reply.spans} spans lost: ${reply.message}`)
      case "Flushed": {
        flushes.get(reply.id)?.()
        flushes.delete(reply.id)
        if (flushes.size === 0) {
          worker.unref()
          replies.unref()
        }
        return
      }
    }
  })
  worker.on("error", fail)
  worker.on("exit", (code) => fail(new Error(`lane spans' worker ended (exit code ${code})`)))

  await new Promise<void>((resolve, reject) => {
    onReady = (error) => (error === undefined ? resolve() : reject(error))
  })
  onReady = undefined
  worker.unref()
  replies.unref()

  let routes = 0
  let closed: Promise<void> | undefined
  const flushWorker = (close: boolean): Promise<void> => {
    batcher.post()
    if (failure !== undefined) return Promise.resolve()
    const id = nextFlush++
    worker.ref()
    replies.ref()
    return new Promise<void>((resolve) => {
      flushes.set(id, resolve)
      batcher.send({ _tag: "Flush", id, close })
    })
  }
  return {
    route: (name, attributes) => {
      const index = routes++
      batcher.send({ _tag: "Route", index, name, attributes })
      return index
    },
    start: (route, traceparent, sampled) => {
      const header = traceparent.trim()
      const flags = traceParentFlags(header)
      if (flags < 0 || (sampled !== undefined && !sampled(header.slice(3, 35), flags === 1))) return undefined
      return new LaneSpan(batcher, route, header, flags === 1)
    },
    dropped: () => batcher.dropped + Atomics.load(counts, 1),
    flush: () => flushWorker(false),
    close: (timeoutMs = 5000) =>
      closed ??= (async () => {
        // An export still hanging (a collector that does not answer) is given up after the timeout.
        let timer: ReturnType<typeof setTimeout> | undefined
        await Promise.race([flushWorker(true), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))])
        clearTimeout(timer)
        batcher.dead = true
        replies.close()
        await worker.terminate()
      })()
  }
}
