/**
 * The lane spans' OTLP encoding, straight from the compact records (LaneSpanProtocol.ts): the
 * bytes `@opentelemetry/otlp-transformer`'s ProtobufTraceSerializer writes for the same spans
 * (test/telemetry/LaneSpanCodec.test.ts holds them equal), without a Span object per record, and
 * the ReadableSpans the library's JSON serializer takes for http/json.
 *
 * The spans are those the SDK's Span records for a server span under a remote parent: kind server,
 * the route's attributes then `http.response.status_code`, status error from 500 on (else unset),
 * a fresh random span id, sampled, the parent remote.
 *
 * Shipped as source text with the worker (LaneSpanWorkerBody.ts), so self-contained: no imported
 * value, only its arguments.
 */
import type { Batch, CodecConfig, LaneSpanCodec } from "./LaneSpanProtocol.js"

export const laneSpanCodec = (config: CodecConfig): LaneSpanCodec => {
  const FIELDS = config.fields
  const ID_BYTES = config.idBytes
  const encoder = new TextEncoder()
  const utf8 = (s: string) => encoder.encode(s)
  const varintSize = (v: number) => (v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5)

  /** A growing byte sink with the protobuf primitives the spans use (lengths minimal, as the library writes them). */
  let buffer = new Uint8Array(64 * 1024)
  let view = new DataView(buffer.buffer)
  let pos = 0
  const ensure = (n: number) => {
    if (pos + n <= buffer.length) return
    const next = new Uint8Array(Math.max(buffer.length * 2, pos + n))
    next.set(buffer.subarray(0, pos))
    buffer = next
    view = new DataView(buffer.buffer)
  }
  const varint = (v: number) => {
    while (v > 0x7f) {
      buffer[pos++] = (v & 0x7f) | 0x80
      v >>>= 7
    }
    buffer[pos++] = v
  }
  const bytes = (b: Uint8Array) => {
    buffer.set(b, pos)
    pos += b.length
  }
  /** `n` bytes of `from` at `at`, as they are (the ids, already bytes). */
  const copy = (from: Uint8Array, at: number, n: number) => {
    for (let i = at; i < at + n; i++) buffer[pos++] = from[i]!
  }
  const toHex = (from: Uint8Array, at: number, n: number) => {
    let hex = ""
    for (let i = at; i < at + n; i++) hex += (from[i]! < 16 ? "0" : "") + from[i]!.toString(16)
    return hex
  }

  /** A KeyValue message (without its field tag) for a string, integer, double or boolean value. */
  const keyValue = (key: string, value: string | number | boolean): Uint8Array => {
    const k = utf8(key)
    let any: Array<number>
    if (typeof value === "string") {
      const v = utf8(value)
      any = [0x0a, ...lengthBytes(v.length), ...v]
    } else if (typeof value === "boolean") any = [0x10, value ? 1 : 0]
    else if (Number.isInteger(value) && value >= 0 && value <= 0xffffffff) any = [0x18, ...lengthBytes(value)]
    else {
      const d = new Uint8Array(8)
      new DataView(d.buffer).setFloat64(0, value, true)
      any = [0x21, ...d]
    }
    return Uint8Array.from([0x0a, ...lengthBytes(k.length), ...k, 0x12, ...lengthBytes(any.length), ...any])
  }
  const lengthBytes = (v: number): Array<number> => {
    const out: Array<number> = []
    while (v > 0x7f) {
      out.push((v & 0x7f) | 0x80)
      v >>>= 7
    }
    out.push(v)
    return out
  }
  const field = (tag: number, body: Uint8Array | Array<number>): Array<number> => [tag, ...lengthBytes(body.length), ...body]

  /** ResourceSpans' head up to its spans: the resource, then the scope of the ScopeSpans. */
  const resourceBody = [
    ...Object.entries(config.resource).flatMap(([key, value]) => field(0x0a, keyValue(key, value))),
    0x10,
    0
  ]
  const scopeBody = [...field(0x0a, utf8(config.scope.name)), ...(config.scope.version ? field(0x12, utf8(config.scope.version)) : [])]
  const resourceField = Uint8Array.from(field(0x0a, resourceBody))
  const scopeField = Uint8Array.from(field(0x0a, scopeBody))

  /** Per route, what every span of it repeats: name and kind, and its attributes. */
  interface Route {
    readonly name: string
    readonly attributes: Readonly<Record<string, string>>
    readonly head: Uint8Array
    readonly attributeFields: Uint8Array
  }
  const routes: Array<Route> = []
  const STATUS_KEY = utf8("http.response.status_code")
  /** status_code's KeyValue body length, for a status of `statusSize` varint bytes. */
  const statusValueLength = (statusSize: number) => 1 + statusSize
  const statusKeyValueLength = (statusSize: number) => 1 + varintSize(STATUS_KEY.length) + STATUS_KEY.length + 1 + 1 + statusValueLength(statusSize)

  /** Bytes of one span's body (without its tag and length). */
  const spanLength = (route: Route, status: number) => {
    const statusSize = varintSize(status)
    const kv = statusKeyValueLength(statusSize)
    return 18 + 10 + 10 + route.head.length + 9 + 9 + route.attributeFields.length + 1 + varintSize(kv) + kv + 2 + 2 + 2 + 4 + 6
  }

  /** A record's time (the event loop's `performance.now()`) as [seconds, nanoseconds] since the epoch. */
  const originSeconds = Math.trunc(config.timeOrigin / 1000)
  const originNanos = Math.round((config.timeOrigin - originSeconds * 1000) * 1e6)
  const hrTime = (now: number): [number, number] => {
    const seconds = Math.trunc(now / 1000)
    let s = originSeconds + seconds
    let n = originNanos + Math.round((now - seconds * 1000) * 1e6)
    if (n >= 1e9) {
      s += 1
      n -= 1e9
    }
    return [s, n]
  }
  /** fixed64 of an HrTime's nanoseconds, computed as the library's writeHrTimeAsFixed64 does. */
  const fixed64Time = (time: [number, number]) => {
    const [seconds, nanos] = time
    const lower = (seconds & 0xffff) * 1e9
    const upper = ((seconds / 0x10000) >>> 0) * 1e9
    const low = (lower >>> 0) + ((((upper & 0xffff) * 0x10000) >>> 0)) + nanos
    const high = (Math.floor(lower / 0x100000000) + ((upper / 0x10000) >>> 0) + Math.floor(low / 0x100000000)) >>> 0
    view.setUint32(pos, low >>> 0, true)
    view.setUint32(pos + 4, high, true)
    pos += 8
  }

  const spanIds = new Uint8Array(8 * 512)
  let spanIdsLeft = 0
  /** Writes a fresh random span id (never all zeros). */
  const spanId = () => {
    for (;;) {
      if (spanIdsLeft === 0) {
        config.randomFill(spanIds)
        spanIdsLeft = spanIds.length / 8
      }
      const at = (--spanIdsLeft) * 8
      let zero = true
      for (let i = at; i < at + 8; i++) if (spanIds[i] !== 0) zero = false
      if (!zero) return bytes(spanIds.subarray(at, at + 8))
    }
  }
  const spanIdHex = () => {
    ensure(8)
    const start = pos
    spanId()
    pos = start
    let id = ""
    for (let i = start; i < start + 8; i++) id += buffer[i]!.toString(16).padStart(2, "0")
    return id
  }

  const writeSpan = (batch: Batch, i: number) => {
    const at = i * FIELDS
    const numbers = batch.numbers
    const route = routes[numbers[at]!]!
    const status = numbers[at + 3]!
    const ids = i * ID_BYTES
    buffer[pos++] = 0x12 // ScopeSpans.spans
    varint(spanLength(route, status))
    buffer[pos++] = 0x0a // trace_id
    buffer[pos++] = 16
    copy(batch.ids, ids, 16)
    buffer[pos++] = 0x12 // span_id
    buffer[pos++] = 8
    spanId()
    buffer[pos++] = 0x22 // parent_span_id
    buffer[pos++] = 8
    copy(batch.ids, ids + 16, 8)
    bytes(route.head) // name, kind
    buffer[pos++] = 0x39 // start_time_unix_nano
    fixed64Time(hrTime(numbers[at + 1]!))
    buffer[pos++] = 0x41 // end_time_unix_nano
    fixed64Time(hrTime(numbers[at + 2]!))
    bytes(route.attributeFields)
    const statusSize = varintSize(status)
    const kv = statusKeyValueLength(statusSize)
    buffer[pos++] = 0x4a // attributes: http.response.status_code
    varint(kv)
    buffer[pos++] = 0x0a
    varint(STATUS_KEY.length)
    bytes(STATUS_KEY)
    buffer[pos++] = 0x12
    buffer[pos++] = statusValueLength(statusSize)
    buffer[pos++] = 0x18
    varint(status)
    buffer[pos++] = 0x50 // dropped_attributes_count, dropped_events_count, dropped_links_count: 0
    buffer[pos++] = 0
    buffer[pos++] = 0x60
    buffer[pos++] = 0
    buffer[pos++] = 0x70
    buffer[pos++] = 0
    buffer[pos++] = 0x7a // status { code }
    buffer[pos++] = 2
    buffer[pos++] = 0x18
    buffer[pos++] = status >= 500 ? 2 : 0
    buffer[pos++] = 0x85 // flags (field 16, fixed32): sampled, the parent's remoteness known and remote
    buffer[pos++] = 0x01
    view.setUint32(pos, 0x301, true)
    pos += 4
  }

  return {
    route: (index, name, attributes) => {
      const kindAndName = [...field(0x2a, utf8(name)), 0x30, 2]
      routes[index] = {
        name,
        attributes,
        head: Uint8Array.from(kindAndName),
        attributeFields: Uint8Array.from(Object.entries(attributes).flatMap(([key, value]) => field(0x4a, keyValue(key, value))))
      }
    },

    encode: (batches) => {
      let spans = 0
      for (const batch of batches) {
        for (let i = 0; i < batch.count; i++) {
          const length = spanLength(routes[batch.numbers[i * FIELDS]!]!, batch.numbers[i * FIELDS + 3]!)
          spans += 1 + varintSize(length) + length
        }
      }
      const scopeSpans = scopeField.length + spans
      const resourceSpans = resourceField.length + 1 + varintSize(scopeSpans) + scopeSpans
      pos = 0
      ensure(1 + 5 + resourceSpans)
      buffer[pos++] = 0x0a // ExportTraceServiceRequest.resource_spans
      varint(resourceSpans)
      bytes(resourceField)
      buffer[pos++] = 0x12 // ResourceSpans.scope_spans
      varint(scopeSpans)
      bytes(scopeField)
      for (const batch of batches) for (let i = 0; i < batch.count; i++) writeSpan(batch, i)
      return buffer.slice(0, pos)
    },

    readableSpans: (batches, resource) => {
      const scope = config.scope.version ? { name: config.scope.name, version: config.scope.version } : { name: config.scope.name }
      const spans: Array<unknown> = []
      pos = 0
      for (const batch of batches) {
        for (let i = 0; i < batch.count; i++) {
          const at = i * FIELDS
          const route = routes[batch.numbers[at]!]!
          const status = batch.numbers[at + 3]!
          const traceId = toHex(batch.ids, i * ID_BYTES, 16)
          const start = batch.numbers[at + 1]!
          const end = batch.numbers[at + 2]!
          const context = { traceId, spanId: spanIdHex(), traceFlags: 1 }
          const nanos = Math.max(0, Math.round((end - start) * 1e6))
          spans.push({
            name: route.name,
            kind: 1,
            spanContext: () => context,
            parentSpanContext: { traceId, spanId: toHex(batch.ids, i * ID_BYTES + 16, 8), traceFlags: batch.numbers[at + 4]!, isRemote: true },
            startTime: hrTime(start),
            endTime: hrTime(end),
            duration: [Math.trunc(nanos / 1e9), nanos % 1e9],
            status: { code: status >= 500 ? 2 : 0 },
            attributes: { ...route.attributes, "http.response.status_code": status },
            links: [],
            events: [],
            ended: true,
            resource,
            instrumentationScope: scope,
            droppedAttributesCount: 0,
            droppedEventsCount: 0,
            droppedLinksCount: 0
          })
        }
      }
      return spans
    }
  }
}
