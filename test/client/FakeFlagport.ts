/**
 * A fake Flagport on loopback for what a real server will not do: serve a broken configuration,
 * drop or refuse streams on cue, answer 5xx. `/v1/config` honours `If-None-Match`; `/v1/stream`
 * speaks the documented SSE format (id, `event: message`, refetchEvaluation data, `: ping`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface SeenRequest {
  readonly path: string
  readonly authorization: string | undefined
  readonly ifNoneMatch: string | undefined
  readonly lastEventId: string | undefined
}

export class FakeFlagport {
  /** The body `/v1/config` serves (any text) and its ETag. */
  config = ""
  etag = 'W/"1"'
  /** Status for `/v1/config` (200 serves `config`). */
  configStatus = 200
  /** `open`: SSE; a number: answer that status; `hang`: accept and never answer. */
  stream: "open" | number | "hang" = 404
  readonly requests: Array<SeenRequest> = []
  private readonly streams = new Set<ServerResponse>()
  private readonly server: Server

  private constructor(server: Server) {
    this.server = server
  }

  static async start(port = 0): Promise<FakeFlagport> {
    const server = createServer()
    const fake = new FakeFlagport(server)
    server.on("request", (req, res) => fake.handle(req, res))
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
    return fake
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  get openStreams(): number {
    return this.streams.size
  }

  /** Sets a new configuration (JSON-serialized) under a new ETag. */
  serve(body: unknown, etag: string): void {
    this.config = JSON.stringify(body)
    this.etag = etag
  }

  /** Sends the change notification for the current ETag to every open stream. */
  announce(): void {
    for (const res of this.streams) res.write(`id: ${this.etag}\nevent: message\ndata: ${JSON.stringify({ type: "refetchEvaluation", etag: this.etag, lastModified: 1 })}\n\n`)
  }

  ping(): void {
    for (const res of this.streams) res.write(": ping\n\n")
  }

  dropStreams(): void {
    for (const res of this.streams) res.destroy()
    this.streams.clear()
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", "http://fake")
    const header = (name: string) => (typeof req.headers[name] === "string" ? (req.headers[name] as string) : undefined)
    this.requests.push({ path: url.pathname, authorization: header("authorization"), ifNoneMatch: header("if-none-match"), lastEventId: header("last-event-id") })
    if (url.pathname === "/v1/config") {
      if (this.configStatus !== 200) {
        res.writeHead(this.configStatus, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "x", message: `fake ${this.configStatus}` } }))
      } else if (header("if-none-match") === this.etag) res.writeHead(304, { etag: this.etag }).end()
      else res.writeHead(200, { "content-type": "application/json", etag: this.etag }).end(this.config)
      return
    }
    if (url.pathname === "/v1/stream") {
      if (this.stream === "hang") return
      if (typeof this.stream === "number") {
        res.writeHead(this.stream, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "x", message: `stream ${this.stream}` } }))
        return
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
      res.flushHeaders()
      this.streams.add(res)
      res.on("close", () => this.streams.delete(res))
      if (header("last-event-id") !== this.etag) {
        res.write(`id: ${this.etag}\nevent: message\ndata: ${JSON.stringify({ type: "refetchEvaluation", etag: this.etag, lastModified: 1 })}\n\n`)
      }
      return
    }
    res.writeHead(404).end()
  }

  async close(): Promise<void> {
    this.dropStreams()
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
