/**
 * Requests that node's HTTP parser refuses before any handler runs (a URL or headers over its
 * 16 KB limit, bytes it does not allow in the request line, both Content-Length and
 * Transfer-Encoding, a garbage request line) reach no handler: node answers them itself with an
 * empty body, unless the server listens to `clientError`. `answerClientError` is that listener:
 * the same status node would send (431, 408 or 400), our error envelope as the body, and the
 * connection closed (the parser cannot go on after such an error). The standalone server uses
 * it; a host that mounts the handlers can pass it to its own server:
 *
 * ```ts
 * server.on("clientError", answerClientError)
 * ```
 */
import type { Duplex } from "node:stream"
import { INTERNAL_MESSAGE } from "../shared/Errors.js"
import { SECURITY_HEADERS } from "../shared/SecurityHeaders.js"

interface ClientErrorAnswer {
  readonly status: number
  readonly reason: string
  readonly code: string
  readonly message: string
}

const answerOf = (code: string | undefined): ClientErrorAnswer => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return { status: 431, reason: "Request Header Fields Too Large", code: "invalid_request", message: "The request line or headers are larger than the server accepts." }
    case "ERR_HTTP_REQUEST_TIMEOUT":
    case "HPE_HEADERS_TIMEOUT":
      return { status: 408, reason: "Request Timeout", code: "invalid_request", message: "The request was not received in time." }
    case undefined:
      return { status: 500, reason: "Internal Server Error", code: "internal_error", message: INTERNAL_MESSAGE }
    default:
      return { status: 400, reason: "Bad Request", code: "invalid_request", message: "The request is not valid HTTP/1.1." }
  }
}

/** The raw HTTP/1.1 response for a parser error: status line, JSON envelope, `Connection: close`. */
export const clientErrorResponse = (error: { readonly code?: string }): string => {
  const answer = answerOf(error.code)
  const body = JSON.stringify({ error: { code: answer.code, message: answer.message } })
  return [
    `HTTP/1.1 ${answer.status} ${answer.reason}`,
    "Content-Type: application/json",
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "",
    body
  ].join("\r\n")
}

/** A `clientError` listener for a node HTTP server (see the module comment). */
export const answerClientError = (error: Error & { readonly code?: string }, socket: Duplex): void => {
  // A reset connection, or one whose response has begun (as node's own listener checks), cannot
  // take a response: just close it.
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage
  if (error.code === "ECONNRESET" || !socket.writable || current?.headersSent === true) {
    socket.destroy()
    return
  }
  socket.end(clientErrorResponse(error))
}
