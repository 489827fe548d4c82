/**
 * Live changes: the pages follow the project's management events (`GET /v1/projects/{p}/events`,
 * Server-Sent Events) and update in place. The browser's `EventSource` cannot send the
 * `Authorization` header a server key needs, so the stream is read with `fetch` and a streamed
 * body, the same way for a key and for a person's session cookie.
 *
 * One connection per project, shared by every page that follows it. It reconnects after 2 s (10 s
 * after a refusal) with `Last-Event-ID`, so nothing written meanwhile is missed; each (re)connection
 * also tells the pages to read what they show again (`null`), which covers a change made between
 * a page's load and the stream's start.
 */
import { signal, type Signal } from "@preact/signals"
import { useEffect, useRef } from "preact/hooks"
import { apiBase, projectPath } from "./api.js"
import { serverKey } from "./session.js"

export interface ManagementEvent {
  readonly id: string
  /** `flag.created`, `targeting.updated`, `segment.updated`, `schedule.created`... */
  readonly kind: string
  readonly resource: { readonly type: string; readonly key: string }
  readonly flagKeys: ReadonlyArray<string>
  readonly environments: ReadonlyArray<string>
  readonly version: number | null
  readonly configVersions: Readonly<Record<string, number>>
  readonly actor: { readonly type: string; readonly keyName?: string; readonly email?: string }
  readonly at: string
}

/** A change, or `null`: the stream (re)connected and anything may have changed meanwhile. */
export type EventListener = (event: ManagementEvent | null) => void

export type LiveState = "connecting" | "live" | "offline"

interface Connection {
  readonly listeners: Set<EventListener>
  readonly state: Signal<LiveState>
  readonly abort: AbortController
  lastId: string | null
}

const connections = new Map<string, Connection>()
const RETRY_MS = 2_000
const REFUSED_RETRY_MS = 10_000

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true })
  })

/** Who did a change, as a person reads it. */
export const actorName = (event: ManagementEvent): string =>
  event.actor.email ?? (event.actor.keyName === undefined ? undefined : `the key “${event.actor.keyName}”`) ?? (event.actor.type === "schedule" ? "a scheduled change" : event.actor.type === "releasePlan" ? "a release plan" : "the command line")

/** Reads one response's events until it ends; answers whether it was accepted. */
const follow = async (connection: Connection, response: Response): Promise<boolean> => {
  if (!response.ok || response.body === null) return false
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffered = ""
  let fields: { id?: string; event?: string; data: Array<string> } = { data: [] }
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return true
    buffered += value
    let newline: number
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, newline).replace(/\r$/, "")
      buffered = buffered.slice(newline + 1)
      if (line === "") {
        if (fields.id !== undefined) connection.lastId = fields.id
        if (fields.event === "ready") {
          connection.state.value = "live"
          for (const listener of connection.listeners) listener(null)
        } else if (fields.event === "change" && fields.data.length > 0) {
          const event = JSON.parse(fields.data.join("\n")) as ManagementEvent
          for (const listener of connection.listeners) listener(event)
        }
        fields = { data: [] }
      } else if (!line.startsWith(":")) {
        const colon = line.indexOf(":")
        const name = colon === -1 ? line : line.slice(0, colon)
        const text = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "")
        if (name === "id") fields.id = text
        else if (name === "event") fields.event = text
        else if (name === "data") fields.data.push(text)
      }
    }
  }
}

const run = async (projectId: string, connection: Connection): Promise<void> => {
  const { signal: aborted } = connection.abort
  while (!aborted.aborted) {
    let accepted = false
    try {
      const headers: Record<string, string> = { accept: "text/event-stream" }
      if (serverKey.value !== null) headers.authorization = `Bearer ${serverKey.value}`
      if (connection.lastId !== null) headers["last-event-id"] = connection.lastId
      const response = await fetch(apiBase() + projectPath(projectId, "/events").replace(/^\//, ""), {
        headers,
        cache: "no-store",
        credentials: "same-origin",
        signal: aborted
      })
      accepted = await follow(connection, response)
    } catch {
      // The network or the server went away: try again below.
    }
    if (aborted.aborted) return
    connection.state.value = "offline"
    await wait(accepted ? RETRY_MS : REFUSED_RETRY_MS, aborted)
  }
}

const connectionOf = (projectId: string): Connection => {
  const known = connections.get(projectId)
  if (known !== undefined) return known
  const connection: Connection = { listeners: new Set(), state: signal<LiveState>("connecting"), abort: new AbortController(), lastId: null }
  connections.set(projectId, connection)
  void run(projectId, connection)
  return connection
}

/**
 * Calls `onEvent` with each change of the project (and `null` on each connection) while the
 * component is mounted; answers whether the page is live now (read in render, so it re-renders).
 */
export const useProjectEvents = (projectId: string, onEvent: EventListener): LiveState => {
  const latest = useRef(onEvent)
  latest.current = onEvent
  const connection = connectionOf(projectId)
  useEffect(() => {
    const listener: EventListener = (event) => latest.current(event)
    const current = connectionOf(projectId)
    current.listeners.add(listener)
    return () => {
      current.listeners.delete(listener)
      // The last page following the project closes its stream (the next one opens a fresh one).
      if (current.listeners.size === 0) {
        current.abort.abort()
        connections.delete(projectId)
      }
    }
  }, [projectId])
  return connection.state.value
}

/** What a page says about its liveness. */
export const LIVE_WORDS: { readonly [S in LiveState]: string } = {
  connecting: "Connecting for live changes…",
  live: "Changes made elsewhere show here as they happen.",
  offline: "Live changes paused: reconnecting…"
}
