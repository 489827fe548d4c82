/**
 * A request body the host already read. When a host mounts a body parser before Flagport
 * (Express `app.use(express.json())`, `express.text()`, `express.raw()`; Fastify's built-in
 * parsers), the parser has consumed the request stream by the time Flagport's node handler runs:
 * reading it again would wait forever. So the handler takes the body from where the parser left
 * it: the value the host passed (`flagport.node(request.raw, reply.raw, request.body)`), else
 * `req.body` (Express):
 *
 * - a Buffer or Uint8Array (`express.raw()`): those bytes;
 * - a string (`express.text()`): its UTF-8 bytes;
 * - any other value (`express.json()`, `express.urlencoded()`): its JSON serialization, which
 *   decodes to the same value (the request keeps its Content-Type, so a form body is still
 *   refused with 415 as it would be unparsed).
 *
 * A consumed stream with nothing usable in `req.body` gets an immediate 500 whose message says
 * what the host must change, never a hang.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"

/** The stream was consumed and `req.body` holds nothing that can stand for it. */
export class HostBodyUnusable {
  readonly _tag = "HostBodyUnusable"
}

const HOST_BODY_UNUSABLE_MESSAGE =
  "The host application read the request body before Flagport's handler and did not hand it on. " +
  "Pass the parsed body as the handler's third argument (flagport.node(req, res, body)), leave it in " +
  "req.body (a Buffer, a string or a parsed JSON value), or mount Flagport before the body parser."

const encoder = new TextEncoder()

const declaresBody = (req: IncomingMessage): boolean =>
  req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] ?? "0") !== "0"

/**
 * The body the host read, `undefined` when the stream is still unread (the usual case: the
 * handler reads it itself), or `HostBodyUnusable`.
 */
export const hostReadBody = (req: IncomingMessage, given?: unknown): Uint8Array | HostBodyUnusable | undefined => {
  if (!req.readableEnded) return undefined
  const body: unknown = given !== undefined && typeof given !== "function" ? given : (req as IncomingMessage & { body?: unknown }).body
  if (body instanceof Uint8Array) return body
  if (typeof body === "string") return encoder.encode(body)
  if (body === undefined && !declaresBody(req)) return new Uint8Array(0)
  if (body === undefined || typeof body === "function" || typeof body === "symbol" || typeof body === "bigint") {
    return new HostBodyUnusable()
  }
  return encoder.encode(JSON.stringify(body))
}

/** Headers that described the bytes on the wire, not the bytes handed on. */
const WIRE_HEADERS = new Set(["content-length", "transfer-encoding", "content-encoding"])

/** The node request as a web Request carrying `body` (its length declared). */
export const webRequestWithBody = (req: IncomingMessage, url: string, body: Uint8Array): Request => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || WIRE_HEADERS.has(name)) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  }
  headers.set("content-length", String(body.byteLength))
  const method = req.method ?? "GET"
  const hasBody = method !== "GET" && method !== "HEAD"
  return new Request(new URL(url, `http://${req.headers.host ?? "localhost"}`), {
    method,
    headers,
    body: hasBody ? (body as BodyInit) : null
  })
}

/** Writes a web Response to a node response, streaming its body. */
export const writeWebResponse = (res: ServerResponse, response: Response): void => {
  const headers: Record<string, string | Array<string>> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers["set-cookie"] = cookies
  res.writeHead(response.status, headers)
  if (response.body === null) res.end()
  else Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).pipe(res)
}

/** The immediate answer when the host consumed the body and left nothing usable. */
export const writeHostBodyUnusable = (res: ServerResponse): void => {
  const body = JSON.stringify({ error: { code: "internal_error", message: HOST_BODY_UNUSABLE_MESSAGE } })
  res.writeHead(500, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
}
