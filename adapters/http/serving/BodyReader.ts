/**
 * The one body reader: every transport reads request bodies through `CappedBody`, which stops at
 * `MAX_BODY_BYTES` (shared/Body.ts). The lane routes read the whole body (node stream or web
 * stream); the HttpApi app, on the web handler, gets a stream capped the same way (on node,
 * `MaxBodySize` in api/Middleware.ts caps it, with the same limit).
 */
import type { IncomingMessage } from "node:http"
import { BodyTooLarge, MAX_BODY_BYTES } from "../shared/Body.js"

/** The error message the HttpApi middleware maps to 413 (as `MaxBodySize` does on node). */
const MAX_BYTES_EXCEEDED = "maxBytes exceeded"

/** Chunks collected up to the cap. */
class CappedBody {
  private readonly chunks: Array<Uint8Array> = []
  private size = 0

  /** Counts a chunk; false (and the chunk dropped) once the body passes the cap. */
  accept(chunk: Uint8Array, keep = true): boolean {
    this.size += chunk.byteLength
    if (this.size > MAX_BODY_BYTES) return false
    if (keep) this.chunks.push(chunk)
    return true
  }

  bytes(): Uint8Array {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks)
  }
}

/**
 * A node request's body to `done`, or `BodyTooLarge` (the rest is drained, not kept) or the
 * stream's error to `fail`; exactly one of them is called, once. Listeners, not a promise: the
 * evaluation routes then answer in the same turn as the body's end.
 */
export const collectNodeBody = (req: IncomingMessage, done: (body: Uint8Array) => void, fail: (error: unknown) => void): void => {
  const body = new CappedBody()
  let settled = false
  req.on("data", (chunk: Buffer) => {
    if (body.accept(chunk)) return
    req.removeAllListeners("data")
    req.resume()
    if (settled) return
    settled = true
    fail(new BodyTooLarge())
  })
  req.on("end", () => {
    if (settled) return
    settled = true
    done(body.bytes())
  })
  req.on("error", (error) => {
    if (settled) return
    settled = true
    fail(error)
  })
}

/** A node request's body, or `BodyTooLarge` (the rest is drained, not kept). */
export const readNodeBody = (req: IncomingMessage): Promise<Uint8Array> =>
  new Promise((resolve, reject) => collectNodeBody(req, resolve, reject))

/** A web request's body, or `BodyTooLarge` (the stream is cancelled). */
export const readWebBody = async (request: Request): Promise<Uint8Array> => {
  if (request.body === null) return new Uint8Array(0)
  const reader = request.body.getReader()
  const body = new CappedBody()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    if (!body.accept(value)) {
      await reader.cancel()
      throw new BodyTooLarge()
    }
  }
  return body.bytes()
}

/**
 * The request for the HttpApi app: `url` (the prefix stripped) and, for a streamed body (no
 * Content-Length, which the security middleware checks), the bytes capped: past the cap the body
 * errors with the message the API-level middleware maps to 413. `capped` false: a key list upload,
 * whose handler streams it uncapped (shared/Body.ts, `isKeyListUpload`).
 */
export const cappedWebRequest = (url: URL, request: Request, capped = true): Request => {
  if (!capped || request.body === null || request.headers.has("content-length")) {
    return url.href === request.url ? request : new Request(url, request)
  }
  const counted = new CappedBody()
  const limit = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (counted.accept(chunk, false)) controller.enqueue(chunk)
      else controller.error(new Error(MAX_BYTES_EXCEEDED))
    }
  })
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: request.body.pipeThrough(limit),
    signal: request.signal,
    duplex: "half"
  } as RequestInit)
}
