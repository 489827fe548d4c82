import type { Batch, CodecConfig, LaneSpanCodec, Message, Reply, WorkerData } from "./LaneSpanProtocol.js"

interface Port {
  on(event: "message", listener: (message: Message) => void): void
}
interface ExportDelegate {
  /** `code` 0 is success (the library's ExportResultCode). */
  export(batches: ReadonlyArray<Batch>, done: (result: { readonly code: number; readonly error?: Error }) => void): void
  forceFlush(): Promise<void>
  shutdown(): Promise<void>
}
interface ExporterBase {
  convertLegacyHttpOptions(config: { url: string }, signal: string, path: string, headers: Record<string, string>): unknown
  createOtlpHttpExportDelegate(
    options: unknown,
    serializer: { serializeRequest(batches: ReadonlyArray<Batch>): Uint8Array; deserializeResponse(data: Uint8Array): unknown },
    componentType: string,
    metricsHelper: { name: string; countItems(batches: ReadonlyArray<Batch>): number },
    meterProvider: undefined
  ): ExportDelegate
}
type Serializer = { serializeRequest(spans: Array<unknown>): Uint8Array; deserializeResponse(data: Uint8Array): unknown }

/**
 * The body of the lane spans' worker thread (LaneSpans.ts): it batches the event loop's records
 * as the SDK's BatchSpanProcessor does (OTEL_BSP_*: exports of at most `maxExportBatchSize`
 * spans, a partial batch sent after `scheduledDelayMillis`, one export at a time, a queue of at
 * most `maxQueueSize` spans beyond which spans are dropped and counted), encodes them
 * (LaneSpanCodec.ts: protobuf written from the records; JSON by the library's serializer) and
 * sends them with the library's OTLP/HTTP transport (`@opentelemetry/otlp-exporter-base`, the
 * one the OTLP exporters are made of: OTEL_EXPORTER_OTLP_HEADERS, the timeout, retries).
 *
 * It is started from its source text, as the SQLite worker is (SqliteWorker.ts): self-contained,
 * no imported value, only what `load` (the worker's `require`) returns and `makeCodec`.
 */
export const laneSpanWorkerBody = (load: (id: string) => unknown, makeCodec: (config: CodecConfig) => LaneSpanCodec): void => {
  const threads = load("node:worker_threads") as { parentPort: Port; workerData: WorkerData }
  const crypto = load("node:crypto") as { randomFillSync: (buffer: Uint8Array) => Uint8Array }
  const data = threads.workerData
  const reply = (message: Reply) => data.replies.postMessage(message)

  const codec = makeCodec({ ...data.codec, randomFill: (bytes) => crypto.randomFillSync(bytes) })
  let delegate: ExportDelegate
  try {
    const base = load(data.modules.exporterBase) as ExporterBase
    const transformer = load(data.modules.transformer) as { JsonTraceSerializer: Serializer; ProtobufTraceSerializer: Serializer }
    const json = data.protocol === "http/json"
    const resource = json ? (load(data.modules.resources) as { resourceFromAttributes: (a: CodecConfig["resource"]) => unknown }).resourceFromAttributes(data.codec.resource) : undefined
    const library = json ? transformer.JsonTraceSerializer : transformer.ProtobufTraceSerializer
    delegate = base.createOtlpHttpExportDelegate(
      base.convertLegacyHttpOptions({ url: data.url }, "TRACES", "v1/traces", { "Content-Type": json ? "application/json" : "application/x-protobuf" }),
      {
        serializeRequest: (batches) => (json ? library.serializeRequest(codec.readableSpans(batches, resource)) : codec.encode(batches)),
        deserializeResponse: (bytes) => library.deserializeResponse(bytes)
      },
      "otlp_http_span_exporter",
      { name: "span", countItems: (batches) => batches.reduce((n, b) => n + b.count, 0) },
      undefined
    )
  } catch (cause) {
    reply({ _tag: "Failed", message: cause instanceof Error ? cause.message : String(cause) })
    return
  }

  /** Spans received and not yet handed to an export, in arrival order. */
  const queue: Array<Batch> = []
  let queued = 0
  let exporting: Promise<void> | undefined
  let timer: ReturnType<typeof setTimeout> | undefined

  /** Up to `n` spans off the front of the queue (splitting a batch where needed). */
  const take = (n: number): Array<Batch> => {
    const out: Array<Batch> = []
    while (n > 0 && queue.length > 0) {
      const head = queue[0]!
      if (head.count <= n) {
        out.push(queue.shift()!)
        n -= head.count
        queued -= head.count
      } else {
        const f = data.codec.fields
        const b = data.codec.idBytes
        out.push({ count: n, ids: head.ids.subarray(0, n * b), numbers: head.numbers.subarray(0, n * f) })
        queue[0] = { count: head.count - n, ids: head.ids.subarray(n * b), numbers: head.numbers.subarray(n * f) }
        queued -= n
        n = 0
      }
    }
    return out
  }

  const exportOne = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const batches = take(data.maxExportBatchSize)
      if (batches.length === 0) return resolve()
      // A failed export loses its spans, as the batch processor's does, and is reported as the processor's are
      // (the event loop's `diag`: this thread's is not set).
      // The exporter's error says only the status text ("Bad Request"): its `code` adds the HTTP status.
      const describe = (cause: unknown) => {
        if (!(cause instanceof Error)) return String(cause)
        const code = (cause as { readonly code?: unknown }).code
        return typeof code === "number" ? `${cause.message} (HTTP ${code})` : cause.message
      }
      const failed = (cause: unknown) => reply({ _tag: "ExportFailed", spans: batches.reduce((n, b) => n + b.count, 0), message: describe(cause) })
      try {
        delegate.export(batches, (result) => {
          if (result.code !== 0) failed(result.error ?? "export failed")
          resolve()
        })
      } catch (cause) {
        failed(cause)
        resolve()
      }
    })

  /** Exports while a full batch waits (or, `all`, anything waits), one export at a time. */
  const pump = (all: boolean): Promise<void> => {
    if (exporting !== undefined) return exporting.then(() => pump(all))
    if (queued === 0 || (!all && queued < data.maxExportBatchSize)) {
      if (queued > 0 && timer === undefined) {
        timer = setTimeout(() => {
          timer = undefined
          void pump(true)
        }, data.scheduledDelayMillis)
        timer.unref()
      }
      return Promise.resolve()
    }
    if (timer !== undefined) {
      clearTimeout(timer)
      timer = undefined
    }
    exporting = exportOne().then(() => {
      exporting = undefined
    })
    return exporting.then(() => pump(all))
  }

  threads.parentPort.on("message", (message) => {
    switch (message._tag) {
      case "Route":
        codec.route(message.index, message.name, message.attributes)
        return
      case "Spans": {
        Atomics.add(data.counts, 0, message.count)
        const room = data.maxQueueSize - queued
        if (room <= 0) {
          Atomics.add(data.counts, 1, message.count)
          return
        }
        const batch = message.count <= room ? message : { count: room, ids: message.ids.subarray(0, room * data.codec.idBytes), numbers: message.numbers.subarray(0, room * data.codec.fields) }
        Atomics.add(data.counts, 1, message.count - batch.count)
        queue.push(batch)
        queued += batch.count
        void pump(false)
        return
      }
      case "Flush": {
        const done = () => reply({ _tag: "Flushed", id: message.id })
        void pump(true)
          .then(() => (message.close ? delegate.shutdown() : delegate.forceFlush()))
          .then(done, done)
        return
      }
    }
  })
  reply({ _tag: "Ready" })
}
