/**
 * The dashboard's one way to call the API: the person's session cookie (sent by the browser with
 * every same-origin request) or the server key as the bearer, JSON in and out, and
 * the API's error envelope turned into an `ApiError` that keeps `details` (problem paths) so a
 * page can show each message next to its field.
 *
 * The API lives beside the dashboard: the dashboard is served at `<prefix>/ui/`, so the API's
 * base is `<prefix>/` whatever prefix a host mounted Flagport under.
 */
import { me, serverKey, signOut } from "./session.js"
import type { Me } from "./types.js"

export interface Problem {
  readonly path: string
  readonly message: string
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ReadonlyArray<Problem>
  ) {
    super(message)
  }
}

export const apiBase = (): string => new URL("../", document.baseURI).pathname

const envelope = (status: number, body: unknown): ApiError => {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error
  if (error !== undefined && typeof error.message === "string") {
    const details = Array.isArray(error.details) ? (error.details as Array<Problem>) : []
    return new ApiError(status, String(error.code), error.message, details)
  }
  return new ApiError(status, "unexpected", `The server could not do this (error ${status}).`, [])
}

/** Headers a call adds to the bearer and the content type (`If-Match` for the writes to a flag). */
export type ExtraHeaders = Readonly<Record<string, string>>

/**
 * The request itself: JSON for a body, except a file (a `Blob`), sent as it is (streamed by the
 * browser) with the content type `extra` names, else the file's own.
 */
const send = async (key: string | null, method: string, path: string, body: unknown, extra: ExtraHeaders): Promise<Response> => {
  const headers: Record<string, string> = key === null ? { ...extra } : { ...extra, authorization: `Bearer ${key}` }
  const file = body instanceof Blob
  if (body !== undefined && !file) headers["content-type"] = "application/json"
  if (file && headers["content-type"] === undefined) headers["content-type"] = body.type
  try {
    return await fetch(apiBase() + path.replace(/^\//, ""), {
      method,
      headers,
      body: body === undefined ? null : file ? body : JSON.stringify(body),
      cache: "no-store",
      credentials: "same-origin"
    })
  } catch {
    throw new ApiError(0, "network", "The server cannot be reached.", [])
  }
}

/**
 * A `GET` whose answer is read as it arrives (a key list of a million lines), as whoever is signed
 * in; a refusal is the API's error, as for `request`.
 */
export const openStream = async (path: string): Promise<Response> => {
  const response = await send(serverKey.value, "GET", path, undefined, {})
  if (!response.ok) {
    const text = await response.text()
    let json: unknown = null
    try {
      json = JSON.parse(text)
    } catch {
      // not JSON: reported as an unexpected answer
    }
    throw envelope(response.status, json)
  }
  return response
}

/**
 * One API call with an explicit key (sign-in checks a key before keeping it), or with none: then
 * the session cookie, if there is one, is what the server judges.
 */
export const requestWith = async <A>(key: string | null, method: string, path: string, body?: unknown, extra: ExtraHeaders = {}): Promise<A> => {
  const response = await send(key, method, path, body, extra)
  if (response.status === 204) return undefined as A
  const text = await response.text()
  let json: unknown = null
  try {
    json = text === "" ? null : JSON.parse(text)
  } catch {
    // not JSON: reported below as an unexpected answer
  }
  if (!response.ok) throw envelope(response.status, json)
  return json as A
}

/**
 * One API call as whoever is signed in. A person whose session ended on the server (signed out
 * elsewhere, disabled, expired) is refused with 401: when `GET /v1/me` confirms there is no
 * session any more (a 401 may also be a key-only route refusing a person), the page goes back to
 * sign-in and says why. After a 403 the person's roles are read again.
 */
export const request = async <A>(method: string, path: string, body?: unknown, extra?: ExtraHeaders): Promise<A> => {
  try {
    return await requestWith<A>(serverKey.value, method, path, body, extra)
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403) && serverKey.value === null && me.value !== null) {
      // A 403: the person's roles may have changed since the page read them; read them again, so
      // the controls follow.
      try {
        me.value = await requestWith<Me>(null, "GET", "/v1/me")
      } catch (now) {
        if (now instanceof ApiError && now.status === 401) signOut(now.message)
      }
    }
    throw error
  }
}

/**
 * `If-Match` naming the version of the flag the change was made on (a flag's `ETag` is its version,
 * quoted): the API refuses the write with 412 if someone changed the flag since it was loaded,
 * instead of silently overwriting their change.
 */
export const ifMatch = (version: number): ExtraHeaders => ({ "if-match": `"${version}"` })

/**
 * `If-Match` for a targeting write: this environment's configuration's ETag (`"staging:7"`), so
 * a change someone made to another environment, or to the name, does not refuse it; only a change
 * to this environment's configuration (or to the variations) does. The flag's version when the
 * server gives no configuration version.
 */
export const ifMatchConfig = (flag: { readonly version: number }, config: { readonly environmentKey: string; readonly version?: number }): ExtraHeaders =>
  config.version === undefined ? ifMatch(flag.version) : { "if-match": `"${config.environmentKey}:${config.version}"` }

/** A path segment, encoded. */
export const seg = (s: string): string => encodeURIComponent(s)

/** `/v1/projects/{projectId}` plus the rest. */
export const projectPath = (projectId: string, rest: string): string => `/v1/projects/${seg(projectId)}${rest}`
