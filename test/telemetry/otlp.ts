/**
 * An OTLP/HTTP receiver for the tracing tests (any HTTP server that records what it is sent; the
 * exporter's JSON form is decoded here), also used as a webhook destination that records headers.
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export interface Received {
  readonly path: string
  readonly contentType: string | undefined
  readonly headers: IncomingMessage["headers"]
  readonly body: Buffer
}

export const listen = async (answer = 200) => {
  const received: Array<Received> = []
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      received.push({ path: req.url ?? "", contentType: req.headers["content-type"], headers: req.headers, body: Buffer.concat(chunks) })
      // Answered in the form it was sent, as a collector does: an empty ExportTraceServiceResponse
      // is no bytes in protobuf and `{}` in JSON (a JSON answer to protobuf makes the exporter warn).
      if (req.headers["content-type"] === "application/x-protobuf") {
        res.writeHead(answer, { "content-type": "application/x-protobuf" })
        res.end()
      } else {
        res.writeHead(answer, { "content-type": "application/json" })
        res.end("{}")
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: number | string
  readonly boolValue?: boolean
}
export interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: OtlpValue }>
  readonly links?: ReadonlyArray<{ readonly traceId: string; readonly spanId: string; readonly attributes?: OtlpSpan["attributes"] }>
}
export interface OtlpExport {
  readonly resourceSpans: ReadonlyArray<{
    readonly resource: { readonly attributes: OtlpSpan["attributes"] }
    readonly scopeSpans: ReadonlyArray<{ readonly scope?: { readonly name: string; readonly version?: string }; readonly spans: ReadonlyArray<OtlpSpan> }>
  }>
}

export const spansOf = (received: ReadonlyArray<Received>): ReadonlyArray<OtlpSpan> =>
  received.flatMap((r) => (JSON.parse(r.body.toString("utf8")) as OtlpExport).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)))

export const attribute = (span: OtlpSpan, key: string): string | number | boolean | undefined => {
  const value = span.attributes.find((a) => a.key === key)?.value
  if (value === undefined) return undefined
  return value.stringValue ?? (value.intValue === undefined ? value.boolValue : Number(value.intValue))
}
