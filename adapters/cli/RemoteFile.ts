/**
 * A file a command fetches over HTTP(S) instead of reading it from disk (`import flagd --url`: the
 * flag definition file a flagd deployment already serves, from a bucket, a repository's raw view or
 * a config server). Bounded, because a wrong URL must fail fast and clearly rather than hang or fill
 * memory: an answer within `REMOTE_TIMEOUT_MS` (headers and body together), at most
 * `REMOTE_MAX_BYTES` (checked on the announced length, then while reading), a 2xx status, and
 * each failure one sentence naming the URL. Redirects are followed (fetch's default, at most 20).
 * A user and password in the URL (`https://user:pass@host/...`, which fetch itself refuses) are
 * sent as Basic authentication, and the password is never printed.
 * Interrupted (a signal), the request is aborted.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { UsageError } from "./UsageError.js"

export const REMOTE_TIMEOUT_MS = 30_000
export const REMOTE_MAX_BYTES = 10 * 1024 * 1024

/** The file could not be fetched (exit 1): the message says why, naming the URL. */
export class RemoteFileFailed extends Data.TaggedError("RemoteFileFailed")<{ readonly message: string }> {}

export interface RemoteFile {
  readonly text: string
  /** The answer's content type, when it named one (YAML or JSON decides how the text is read). */
  readonly contentType: string | undefined
}

export interface RemoteLimits {
  readonly timeoutMs: number
  readonly maxBytes: number
}

/** `url` as an http(s) URL, or a usage error (exit 2: the fix is in the command line). */
export const httpUrl = (url: string): Effect.Effect<URL, UsageError> => {
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  return parsed !== undefined && (parsed.protocol === "http:" || parsed.protocol === "https:")
    ? Effect.succeed(parsed)
    : Effect.fail(new UsageError({ message: `--url takes an http:// or https:// URL, not ${JSON.stringify(url)}` }))
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`

/** The body, read chunk by chunk so that an answer over the limit is dropped as soon as it passes it. */
const readBounded = async (response: Response, maxBytes: number, shown: string): Promise<string> => {
  const tooLarge = () => new RemoteFileFailed({ message: `${shown} answered more than ${sizeText(maxBytes)}: that is no flag definition file (check the URL)` })
  const announced = Number(response.headers.get("content-length") ?? Number.NaN)
  if (announced > maxBytes) {
    await response.body?.cancel()
    throw tooLarge()
  }
  const chunks: Array<Uint8Array> = []
  let total = 0
  const reader = response.body?.getReader()
  for (;;) {
    const next = reader === undefined ? { done: true as const } : await reader.read()
    if (next.done) break
    total += next.value.byteLength
    if (total > maxBytes) {
      await reader!.cancel()
      throw tooLarge()
    }
    chunks.push(next.value)
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks))
  } catch {
    throw new RemoteFileFailed({ message: `${shown} answered bytes that are not UTF-8 text` })
  }
}

const describeFailure = (error: unknown, shown: string, timeoutMs: number): RemoteFileFailed => {
  if (error instanceof RemoteFileFailed) return error
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return new RemoteFileFailed({ message: `${shown} did not answer within ${timeoutMs / 1000} s` })
  }
  // fetch's "fetch failed" says little: its cause names the real reason (ECONNREFUSED, ENOTFOUND, a certificate).
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  const reason = cause instanceof Error ? ("code" in cause && typeof cause.code === "string" ? `${cause.code}: ${cause.message}` : cause.message) : String(cause)
  return new RemoteFileFailed({ message: `cannot fetch ${shown}: ${reason}` })
}

/** GET `url`: its text and content type, or why not (see the top of this file). */
export const fetchFile = (url: URL, limits: RemoteLimits = { timeoutMs: REMOTE_TIMEOUT_MS, maxBytes: REMOTE_MAX_BYTES }): Effect.Effect<RemoteFile, RemoteFileFailed> => {
  // Never print a password the URL may carry.
  const shown = url.password === "" ? url.href : url.href.replace(`:${url.password}@`, ":***@")
  const target = new URL(url.href)
  target.username = ""
  target.password = ""
  const credentials = url.username === "" && url.password === ""
    ? {}
    : { authorization: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}` }
  return Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(target, {
        signal: AbortSignal.any([signal, AbortSignal.timeout(limits.timeoutMs)]),
        headers: { accept: "application/json, application/yaml;q=0.9, */*;q=0.1", ...credentials }
      })
      if (!response.ok) {
        await response.body?.cancel()
        throw new RemoteFileFailed({ message: `${shown} answered ${response.status}${response.statusText === "" ? "" : ` ${response.statusText}`}` })
      }
      return { text: await readBounded(response, limits.maxBytes, shown), contentType: response.headers.get("content-type") ?? undefined }
    },
    catch: (error) => describeFailure(error, shown, limits.timeoutMs)
  })
}
