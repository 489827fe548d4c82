/**
 * FLAGPORT_LOG_FORMAT=json: one JSON line per request at info (method, route template, status,
 * duration, request id, trace id when the request carries a W3C `traceparent`), and Effect's own
 * log lines as JSON too (`Logger.json`). The line is built from those fields only: never a header,
 * the raw path or the query (a stream token travels there), the body, a key, a cookie or a password.
 */
import { randomUUID } from "node:crypto"
import * as Config from "effect/Config"

export type LogFormat = "text" | "json"

/** FLAGPORT_LOG_FORMAT: `text` (default) or `json`. */
export const logFormatConfig: Config.Config<LogFormat> = Config.literal("text", "json")("FLAGPORT_LOG_FORMAT").pipe(Config.withDefault("text" as const))

/** An id a client or proxy sent in `X-Request-Id`, when it is a plain token; else ours. */
const REQUEST_ID = /^[\w.:@-]{1,128}$/
/** `traceparent`: version, 32-hex trace id, 16-hex parent id, flags (W3C Trace Context). */
const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/

export const requestIdOf = (header: string | undefined): string => (header !== undefined && REQUEST_ID.test(header) ? header : randomUUID())

export const traceIdOf = (traceparent: string | undefined): string | undefined => {
  if (traceparent === undefined) return undefined
  const match = TRACEPARENT.exec(traceparent.trim())
  return match === null || /^0+$/.test(match[1]!) ? undefined : match[1]
}

export interface RequestLogFields {
  readonly method: string
  readonly route: string
  readonly status: number
  readonly durationMs: number
  readonly requestId: string
  readonly traceId: string | undefined
}

/** The line, in the field order of Effect's JSON logger where they overlap (timestamp, level, message). */
export const requestLine = (fields: RequestLogFields, now: Date = new Date()): string =>
  JSON.stringify({
    timestamp: now.toISOString(),
    level: "INFO",
    message: "request",
    method: fields.method,
    route: fields.route,
    status: fields.status,
    durationMs: Math.round(fields.durationMs * 1000) / 1000,
    requestId: fields.requestId,
    ...(fields.traceId === undefined ? {} : { traceId: fields.traceId })
  })
