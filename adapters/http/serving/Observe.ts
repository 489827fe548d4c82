/**
 * What the node and web handlers (Embed.ts) note about every request they answer: the request
 * metrics (adapters/metrics/RequestMetrics.ts) and the JSON request log (RequestLog.ts), each only
 * when switched on. Absent, the handlers do exactly what they did before: nothing is timed.
 *
 * The evaluation lane reports synchronously where it writes its answer (no listener, no closure per
 * request); the HttpApi app and the dashboard through the response's `finish` event.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { RequestMetrics } from "../../metrics/RequestMetrics.js"
import { requestIdOf, requestLine, traceIdOf } from "./RequestLog.js"
import { apiTemplate } from "./RouteTemplate.js"

/** A request's headers (the lane's request objects are one already: nothing more is made for them). */
export interface HeaderSource {
  header(name: string): string | undefined
}

export class RequestObserver {
  constructor(
    private readonly metrics: RequestMetrics | undefined,
    /** Where request lines go (JSON logs on), e.g. `(line) => process.stdout.write(line + "\n")`. */
    private readonly log: ((line: string) => void) | undefined
  ) {}

  /** A request answered; `started` from `performance.now()`. */
  done(method: string, route: string, status: number, started: number, headers: HeaderSource): void {
    const ms = performance.now() - started
    this.metrics?.record(method, route, status, ms / 1000)
    if (this.log !== undefined) {
      this.log(
        requestLine({
          method,
          route,
          status,
          durationMs: ms,
          requestId: requestIdOf(headers.header("x-request-id")),
          traceId: traceIdOf(headers.header("traceparent"))
        })
      )
    }
  }

  /** Reports a request the HttpApi app or the dashboard answers when its response finishes. */
  watch(req: IncomingMessage, res: ServerResponse, path: string, started: number): void {
    const method = req.method ?? "GET"
    res.once("finish", () => this.done(method, apiTemplate(method, path), res.statusCode, started, { header: (name) => nodeHeader(req, name) }))
  }
}

export const nodeHeader = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(", ") : value
}
