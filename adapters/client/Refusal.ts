/**
 * The server's refusal: an answer in the 4xx range that asking again soon cannot change (a wrong
 * or revoked key, an unknown project or environment, a key not valid for this environment), as
 * opposed to 408 and 429, which say "later" and are retried like an unreachable server.
 *
 * A refusal at start ends `createClient` at once (it rejects with a `FlagportServerError`). A
 * running client reports it (the `error` event, with the error as second argument), keeps serving
 * what it had, and asks again on `REFUSAL_BACKOFF`: slowly, since someone has to fix what the
 * server named, and a fleet of clients with a revoked key must not hammer the server meanwhile.
 */
import type { BackoffPolicy } from "./Backoff.js"

/** The server refused a request; `code` and `serverMessage` are its error envelope's. */
export class FlagportServerError extends Error {
  override readonly name = "FlagportServerError"

  constructor(
    /** The HTTP status: 400, 401, 403, 404, ... */
    readonly status: number,
    /** The envelope's `error.code` (`not_found`, `unauthorized`, `forbidden`, ...); `http_<status>` for an answer without one (a proxy's page). */
    readonly code: string,
    /** The envelope's `error.message` (`Environment 'prod' not found`), else the status line. */
    readonly serverMessage: string
  ) {
    super(`flagport: the server refused the request: ${status} ${code}: ${serverMessage}`)
  }
}

/** Statuses in the 4xx range that mean "not now" rather than "no". */
const TRANSIENT = new Set([408, 429])

/** True for an answer that is a refusal (see above). */
export const isRefusal = (status: number): boolean => status >= 400 && status < 500 && !TRANSIENT.has(status)

/**
 * The wait before asking again after a refusal: 30-60 s, then 1-2 min, 2-4, 4-8, and from then on
 * 7.5-15 min (the usual equal jitter). A connection or answer that succeeds starts it over.
 */
export const REFUSAL_BACKOFF: BackoffPolicy = { initialMs: 60_000, maxMs: 900_000, resetAfterMs: 60_000 }

/** The refusal as a client's `error` event says it: the server's answer, then what the client does about it. */
export const refusalNotice = (refusal: FlagportServerError, serving: "configuration" | "fallbacks"): string =>
  `the server refused the request: ${refusal.status} ${refusal.code}: ${refusal.serverMessage}; ` +
  `${serving === "configuration" ? "serving the configuration it had" : "serving fallbacks"}, asking again in about a minute, ` +
  "then less and less often (up to every 15 minutes) until the server accepts"

/** Reads a refusal from its answer (the body is consumed). */
export const readRefusal = async (response: Response): Promise<FlagportServerError> => {
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } }
    const code = body?.error?.code
    const message = body?.error?.message
    if (typeof code === "string" && typeof message === "string") return new FlagportServerError(response.status, code, message)
  } catch {
    // not the envelope
  }
  return new FlagportServerError(response.status, `http_${response.status}`, response.statusText.trim() === "" ? "(no message)" : response.statusText.trim())
}
