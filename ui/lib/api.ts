/**
 * The dashboard's one way to call the API: the server key as the bearer, JSON in and out, and
 * the API's error envelope turned into an `ApiError` that keeps `details` (problem paths) so a
 * page can show each message next to its field.
 *
 * The API lives beside the dashboard: the dashboard is served at `<prefix>/ui/`, so the API's
 * base is `<prefix>/` whatever prefix a host mounted Flagport under.
 */
import { serverKey } from "./session.js"

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

const apiBase = (): string => new URL("../", document.baseURI).pathname

const envelope = (status: number, body: unknown): ApiError => {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error
  if (error !== undefined && typeof error.message === "string") {
    const details = Array.isArray(error.details) ? (error.details as Array<Problem>) : []
    return new ApiError(status, String(error.code), error.message, details)
  }
  return new ApiError(status, "unexpected", `The server answered ${status}.`, [])
}

/** Headers a call adds to the bearer and the content type (`If-Match` for the writes to a flag). */
export type ExtraHeaders = Readonly<Record<string, string>>

/** One API call with an explicit key (sign-in checks a key before keeping it). */
export const requestWith = async <A>(key: string, method: string, path: string, body?: unknown, extra: ExtraHeaders = {}): Promise<A> => {
  const headers: Record<string, string> = { ...extra, authorization: `Bearer ${key}` }
  if (body !== undefined) headers["content-type"] = "application/json"
  let response: Response
  try {
    response = await fetch(apiBase() + path.replace(/^\//, ""), {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      cache: "no-store"
    })
  } catch {
    throw new ApiError(0, "network", "The server cannot be reached.", [])
  }
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

/** One API call with the signed-in key. */
export const request = <A>(method: string, path: string, body?: unknown, extra?: ExtraHeaders): Promise<A> =>
  requestWith<A>(serverKey.value ?? "", method, path, body, extra)

/**
 * `If-Match` naming the version of the flag the change was made on (a flag's `ETag` is its version,
 * quoted): the API refuses the write with 412 if someone changed the flag since it was loaded,
 * instead of silently overwriting their change.
 */
export const ifMatch = (version: number): ExtraHeaders => ({ "if-match": `"${version}"` })

/** A path segment, encoded. */
export const seg = (s: string): string => encodeURIComponent(s)

/** `/v1/projects/{projectId}` plus the rest. */
export const projectPath = (projectId: string, rest: string): string => `/v1/projects/${seg(projectId)}${rest}`
