/**
 * One conditional download of `/v1/config`: `If-None-Match` with the ETag of the configuration
 * the client holds, so an unchanged configuration costs a 304 and no body.
 */
import { authorization, deadline, describeError, type Endpoint, endpointUrl, errorMessage } from "./Endpoint.js"
import { type FlagportServerError, isRefusal, readRefusal } from "./Refusal.js"
import type { Timers } from "./Timers.js"

export type FetchOutcome =
  /** A new body (not yet checked) and its ETag. */
  | { readonly kind: "modified"; readonly body: unknown; readonly etag: string | undefined }
  | { readonly kind: "not-modified" }
  /** The server could not be reached, timed out, failed (5xx) or asked to wait (408, 429): try again later. */
  | { readonly kind: "unreachable"; readonly message: string }
  /** The server refused the request (Refusal.ts: a wrong key, project or environment). */
  | { readonly kind: "refused"; readonly refusal: FlagportServerError }
  /** A 200 whose body is not JSON. */
  | { readonly kind: "malformed"; readonly message: string }

export const fetchConfig = async (
  endpoint: Endpoint,
  timers: Timers,
  etag: string | undefined,
  signal: AbortSignal
): Promise<FetchOutcome> => {
  const request = deadline(timers, signal, endpoint.requestTimeoutMs)
  try {
    const headers: Record<string, string> = { authorization: authorization(endpoint), accept: "application/json" }
    if (etag !== undefined) headers["if-none-match"] = etag
    const response = await endpoint.fetch(endpointUrl(endpoint, "/v1/config"), { headers, signal: request.signal })
    if (response.status === 304) return { kind: "not-modified" }
    if (isRefusal(response.status)) return { kind: "refused", refusal: await readRefusal(response) }
    if (response.status !== 200) return { kind: "unreachable", message: await errorMessage(response) }
    const text = await response.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return { kind: "malformed", message: "the configuration is not JSON" }
    }
    return { kind: "modified", body, etag: response.headers.get("etag") ?? undefined }
  } catch (error) {
    if (request.signal.aborted && !signal.aborted) return { kind: "unreachable", message: `no answer within ${endpoint.requestTimeoutMs} ms` }
    return { kind: "unreachable", message: describeError(error) }
  } finally {
    request.done()
  }
}
