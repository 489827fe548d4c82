/**
 * Where and how the client talks to a Flagport server: the URLs of `/v1/config` and
 * `/v1/stream` for one project and environment, and the request headers.
 */
import type { Timers } from "./Timers.js"

export interface Endpoint {
  /** The server's base URL, mount prefix included (`https://flags.example.com`, `http://host/flags`). */
  readonly url: string
  readonly key: string
  readonly environment: string | undefined
  readonly projectId: string | undefined
  readonly fetch: typeof globalThis.fetch
  readonly requestTimeoutMs: number
}

/** `{base}{path}?environment=..&projectId=..`, omitting what the key supplies. */
export const endpointUrl = (endpoint: Endpoint, path: string): string => {
  const query = new URLSearchParams()
  if (endpoint.environment !== undefined) query.set("environment", endpoint.environment)
  if (endpoint.projectId !== undefined) query.set("projectId", endpoint.projectId)
  const search = query.toString()
  return `${endpoint.url.replace(/\/+$/, "")}${path}${search === "" ? "" : `?${search}`}`
}

export const authorization = (endpoint: Endpoint): string => `Bearer ${endpoint.key}`

/**
 * A signal that aborts when `parent` does or after `ms`; `done()` releases the timer (call it
 * once the request no longer needs a deadline).
 */
export const deadline = (timers: Timers, parent: AbortSignal, ms: number): { readonly signal: AbortSignal; readonly done: () => void } => {
  const controller = new AbortController()
  const abort = () => controller.abort()
  if (parent.aborted) controller.abort()
  else parent.addEventListener("abort", abort, { once: true })
  const cancel = timers.schedule(ms, abort)
  return {
    signal: controller.signal,
    done: () => {
      cancel()
      parent.removeEventListener("abort", abort)
    }
  }
}

/** The message of Flagport's error envelope, else the status line. */
export const errorMessage = async (response: Response): Promise<string> => {
  try {
    const body = (await response.json()) as { error?: { message?: unknown } }
    if (typeof body?.error?.message === "string") return `${response.status}: ${body.error.message}`
  } catch {
    // not the envelope
  }
  return `${response.status} ${response.statusText}`.trim()
}

export const describeError = (error: unknown): string => {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message
  }
  return String(error)
}
