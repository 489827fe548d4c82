/**
 * CORS for the evaluation side. Browsers call the evaluation endpoints directly (a client key in
 * a web page, an OpenFeature web provider), so those answer preflight requests and carry CORS
 * headers; management endpoints never do (a server key has no business in a browser). Which
 * routes are the evaluation side is decided by the lane's route table (lane/Routes.ts); this file
 * only says what the headers are.
 *
 * The allowed origins come from FLAGPORT_CORS_ORIGINS: a comma-separated list of origins
 * (`https://app.example.com`), or `*` (the default) for any origin. No cookies are involved
 * (credentials are bearer keys or stream tokens), so `*` is safe to answer as is.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"
import type { LaneResponse } from "./EvaluationLaneService.js"

/** `*` (any origin) or the exact origins allowed. */
export type CorsOrigins = "*" | ReadonlySet<string>

/** The request headers a browser may send: credentials, JSON bodies, ETag revalidation, OFREP's environment, SSE resumption. */
export const ALLOWED_HEADERS = "Authorization, Content-Type, If-None-Match, Flagport-Environment, Last-Event-ID"
/** The response headers a page may read beyond the CORS-safelisted ones. */
export const EXPOSED_HEADERS = "ETag"
/** How long a browser may cache a preflight answer (seconds). */
export const PREFLIGHT_MAX_AGE = "600"

/** `scheme://host[:port]`, as the `Origin` header carries it (no path, no trailing slash). */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/\s?#]+$/i

/** The value of FLAGPORT_CORS_ORIGINS, parsed; a malformed entry is an error naming it. */
export const parseOrigins = (raw: string): Either.Either<CorsOrigins, string> => {
  const entries = raw.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")
  if (entries.length === 0 || entries.includes("*")) return Either.right("*")
  const origins = new Set<string>()
  for (const entry of entries) {
    const origin = entry.endsWith("/") ? entry.slice(0, -1) : entry
    if (!ORIGIN.test(origin)) return Either.left(`"${entry}" is not an origin (expected scheme://host[:port], or *)`)
    origins.add(origin.toLowerCase())
  }
  return Either.right(origins)
}

/** FLAGPORT_CORS_ORIGINS (default `*`); a malformed list stops the start. */
export const corsOriginsConfig: Config.Config<CorsOrigins> = Config.string("FLAGPORT_CORS_ORIGINS").pipe(
  Config.mapOrFail((raw) => Either.mapLeft(parseOrigins(raw), (message) => ConfigError.InvalidData([], message))),
  Config.withDefault<CorsOrigins>("*")
)

const ANY_ORIGIN: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": EXPOSED_HEADERS
}

export class Cors {
  constructor(private readonly origins: CorsOrigins) {}

  /**
   * The CORS headers for an answer to a request from `origin` (the `Origin` header), or
   * undefined when none apply (no Origin: not a cross-origin browser request; an origin not allowed).
   */
  headersFor(origin: string | undefined): Readonly<Record<string, string>> | undefined {
    if (origin === undefined) return undefined
    if (this.origins === "*") return ANY_ORIGIN
    if (!this.origins.has(origin.toLowerCase())) return undefined
    return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS }
  }

  /**
   * The headers an answer to a request from `origin` gets: the CORS headers, if any apply, and
   * `Vary: Origin` with a list of origins (the answer differs by Origin).
   */
  answerHeaders(origin: string | undefined): Readonly<Record<string, string>> {
    const cors = this.headersFor(origin)
    return this.origins === "*" ? (cors ?? {}) : { ...cors, vary: "Origin" }
  }

  /** `response` with the CORS headers for `origin` added (with a list of origins, the answer varies by Origin). */
  apply(origin: string | undefined, response: LaneResponse): LaneResponse {
    const cors = this.headersFor(origin)
    if (cors === undefined && this.origins === "*") return response
    const headers: Record<string, string> = { ...response.headers, ...cors }
    if (this.origins !== "*") headers.vary = response.headers.vary === undefined ? "Origin" : `${response.headers.vary}, Origin`
    return { ...response, headers }
  }

  /**
   * The answer to a preflight (`OPTIONS` on an evaluation route): 204, with the allowed methods
   * and headers when the origin is allowed, without any CORS header otherwise (the browser then
   * refuses the real request). Needs no credentials: browsers never send them on a preflight.
   */
  preflight(origin: string | undefined, methods: string): LaneResponse {
    const cors = this.headersFor(origin)
    const base: Record<string, string> = this.origins === "*" ? {} : { vary: "Origin" }
    if (cors === undefined) return { status: 204, headers: base, body: undefined }
    return {
      status: 204,
      headers: {
        ...base,
        ...cors,
        "access-control-allow-methods": methods,
        "access-control-allow-headers": ALLOWED_HEADERS,
        "access-control-max-age": PREFLIGHT_MAX_AGE
      },
      body: undefined
    }
  }
}
