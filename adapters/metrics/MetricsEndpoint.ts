/**
 * `GET /metrics`: the scrape answer, behind a bearer token when FLAGPORT_METRICS_TOKEN is set.
 * Plain `node:http`, outside the HttpApi (like the evaluation lane): Prometheus is no API client,
 * and its answer is text, not the JSON envelope. The same handler serves the API's port or a port
 * of its own (FLAGPORT_METRICS_PORT).
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { ServerMetrics } from "./ServerMetrics.js"

export const METRICS_PATH = "/metrics"

const digest = (value: string): Buffer => createHash("sha256").update(value).digest()

/**
 * Whether `authorization` is `Bearer <token>`. The scheme is checked (the stack's `bearer`
 * helper does not), and the tokens are compared as digests in constant time.
 */
export const bearerMatches = (authorization: string | undefined, token: Redacted.Redacted<string>): boolean => {
  if (authorization === undefined) return false
  const match = /^Bearer +(\S+) *$/i.exec(authorization)
  if (match === null) return false
  return timingSafeEqual(digest(match[1]!), digest(Redacted.value(token)))
}

const plain = (res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers })
  res.end(text)
}

/** Answers a request for /metrics (GET or HEAD; the caller matched the path). */
export const answerMetrics = (metrics: ServerMetrics, token: Option.Option<Redacted.Redacted<string>>) =>
(req: IncomingMessage, res: ServerResponse): void => {
  if (req.method !== "GET" && req.method !== "HEAD") return plain(res, 405, "Method Not Allowed\n", { allow: "GET, HEAD" })
  if (Option.isSome(token) && !bearerMatches(req.headers.authorization, token.value)) {
    return plain(res, 401, "Unauthorized\n", { "www-authenticate": 'Bearer realm="metrics"' })
  }
  metrics.scrape().then(
    (text) => {
      res.writeHead(200, { "content-type": metrics.contentType, "cache-control": "no-store" })
      res.end(req.method === "HEAD" ? undefined : text)
    },
    () => plain(res, 500, "Metrics could not be collected\n")
  )
}

/** Whether a request (its URL with the mount prefix stripped) is for /metrics. */
export const isMetricsPath = (url: string): boolean => url === METRICS_PATH || url.startsWith(`${METRICS_PATH}?`)

/** /metrics on a port of its own, on `host` (every other path is a 404 there); answers where it listens. */
export const listenMetrics = async (
  metrics: ServerMetrics,
  token: Option.Option<Redacted.Redacted<string>>,
  port: number,
  host: string
): Promise<{ readonly url: string; readonly close: () => Promise<void> }> => {
  const answer = answerMetrics(metrics, token)
  const server: Server = createServer((req, res) => (isMetricsPath(req.url ?? "/") ? answer(req, res) : plain(res, 404, "Not Found\n")))
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  return {
    url: `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
