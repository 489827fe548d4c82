/**
 * A minimal Server-Sent Events reader for the stream tests: it opens `GET /v1/stream` over
 * node:http (so a test can hold hundreds open and see exactly what arrives, comments included)
 * and parses events as the EventSource specification does (fields, blank line ends an event).
 */
import { request as httpRequest } from "node:http"

export interface SseEvent {
  readonly id: string | undefined
  readonly event: string | undefined
  readonly data: string
}

export interface OpenStream {
  readonly status: number
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  /** The body of a non-200 answer. */
  readonly body: string
  readonly events: Array<SseEvent>
  /** `: ping` (and other) comment lines seen. */
  readonly comments: Array<string>
  /** Resolves with the `n`th event (0-based), waiting for it up to `timeoutMs`. */
  readonly event: (n: number, timeoutMs?: number) => Promise<SseEvent>
  /** Resolves when the server ends the response. */
  readonly ended: Promise<void>
  readonly close: () => void
}

export const openStream = (baseUrl: string, pathAndQuery: string, headers: Record<string, string> = {}): Promise<OpenStream> =>
  new Promise((resolve, reject) => {
    const url = new URL(pathAndQuery, baseUrl)
    const req = httpRequest(url, { headers: { accept: "text/event-stream", ...headers }, agent: false }, (res) => {
      const events: Array<SseEvent> = []
      const comments: Array<string> = []
      const waiters: Array<() => void> = []
      let buffered = ""
      let body = ""
      let current: { id?: string; event?: string; data: Array<string> } = { data: [] }
      let endedResolve: () => void = () => {}
      const ended = new Promise<void>((r) => (endedResolve = r))
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => {
        if (res.statusCode !== 200) {
          body += chunk
          return
        }
        buffered += chunk
        let newline: number
        while ((newline = buffered.indexOf("\n")) !== -1) {
          const line = buffered.slice(0, newline)
          buffered = buffered.slice(newline + 1)
          if (line === "") {
            if (current.data.length > 0 || current.id !== undefined) {
              events.push({ id: current.id, event: current.event, data: current.data.join("\n") })
              for (const wake of waiters.splice(0)) wake()
            }
            current = { data: [] }
          } else if (line.startsWith(":")) comments.push(line)
          else {
            const colon = line.indexOf(":")
            const field = line.slice(0, colon)
            const value = line.slice(colon + 1).replace(/^ /, "")
            if (field === "id") current.id = value
            else if (field === "event") current.event = value
            else if (field === "data") current.data.push(value)
          }
        }
      })
      res.on("end", () => endedResolve())
      res.on("close", () => {
        endedResolve()
        for (const wake of waiters.splice(0)) wake()
      })
      const event = async (n: number, timeoutMs = 5_000): Promise<SseEvent> => {
        const deadline = Date.now() + timeoutMs
        while (events.length <= n) {
          const left = deadline - Date.now()
          if (left <= 0) throw new Error(`no event #${n} within ${timeoutMs} ms (got ${events.length})`)
          await new Promise<void>((wake) => {
            const timer = setTimeout(wake, left)
            waiters.push(() => {
              clearTimeout(timer)
              wake()
            })
          })
          if (res.closed && events.length <= n) throw new Error(`stream ended before event #${n} (got ${events.length})`)
        }
        return events[n]!
      }
      const finish = () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          get body() {
            return body
          },
          events,
          comments,
          event,
          ended,
          close: () => req.destroy()
        })
      if (res.statusCode === 200) finish()
      else res.on("end", finish)
    })
    req.on("error", reject)
    req.end()
  })

/** The ETag an OFREP notification announces, checked to be well formed. */
export const etagOf = (event: SseEvent): string => {
  const data = JSON.parse(event.data) as { type: string; etag: string; lastModified: number }
  if (event.event !== "message" || data.type !== "refetchEvaluation" || data.etag !== event.id || !Number.isInteger(data.lastModified)) {
    throw new Error(`not an OFREP notification: ${JSON.stringify(event)}`)
  }
  return data.etag
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
