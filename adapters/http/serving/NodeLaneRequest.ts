import type { IncomingMessage } from "node:http"
import type { ServerSpan } from "../../telemetry/ActiveTracing.js"
import type { LaneRequest } from "../shared/EvaluationLaneService.js"
import type { MaybeAsync } from "../shared/MaybeAsync.js"
import { readNodeBody } from "./BodyReader.js"

/**
 * A node request as the lane sees it. A class, not an object of closures: nothing is allocated
 * per request beyond this one object (it matters at tens of thousands of requests per second).
 */
export class NodeLaneRequest implements LaneRequest {
  constructor(
    private readonly req: IncomingMessage,
    readonly query: string,
    /** The body a host's parser already read (HostReadBody.ts), else read from the stream. */
    private readonly hostBody: Uint8Array | undefined
  ) {}
  /** When it arrived (`performance.now()`), when requests are observed; else 0. */
  started = 0
  /** Its span (LaneTracing.ts), when tracing is on and the caller traces it; ended with the answer. */
  span: ServerSpan | undefined = undefined
  /** The body already collected from the stream (`collectNodeBody`), or why it could not be. */
  collected: { readonly bytes: Uint8Array } | { readonly error: unknown } | undefined = undefined
  get remoteAddress(): string | undefined {
    return this.req.socket.remoteAddress
  }
  header(name: string): string | undefined {
    if (this.hostBody !== undefined && name === "content-length") return String(this.hostBody.byteLength)
    const value = this.req.headers[name]
    return Array.isArray(value) ? value.join(", ") : value
  }
  body(): MaybeAsync<Uint8Array> {
    if (this.hostBody !== undefined) return this.hostBody
    if (this.collected === undefined) return readNodeBody(this.req)
    if ("bytes" in this.collected) return this.collected.bytes
    throw this.collected.error
  }
}

/** A body sent in chunks, its length unknown until it ends. */
export const isChunked = (req: IncomingMessage): boolean => req.headers["content-length"] === undefined && req.headers["transfer-encoding"] !== undefined

