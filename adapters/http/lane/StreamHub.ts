/**
 * The live change streams (`GET /v1/stream`) of one app: every open stream, grouped by the
 * (project, environment) it follows, fed from the change feed (never from HTTP traffic).
 *
 * Cost per change and per stream, whatever the number of streams:
 * - One channel per (project, environment) with open streams. A `ConfigChanged` that may touch
 *   the environment makes the channel read the environment's current entry from the snapshot cache
 *   (one reload shared by every stream of every channel on it, none per stream), and only when
 *   its ETag differs from the last one sent is one event serialized, then written to each stream.
 *   So a change that cannot alter what the environment serves (another environment, a segment no
 *   rule reaches) sends nothing, and one that does sends exactly one event.
 * - Changes arriving while a read is in flight are coalesced into one more read after it: a burst
 *   may become one event, but the last change is never lost. A failed read is retried after
 *   `retryMs` (a timer per failing channel, none otherwise).
 * - One heartbeat timer for the whole hub writes `: ping` to every stream every `heartbeatMs`
 *   (15 s), so proxies keep idle streams open; no timer per stream.
 * - `revoked(credential)` ends every stream opened with that credential (an API key's id) at
 *   once: the change feed's `ApiKeyRevoked`, from this process or another that announces it.
 *   `closeAll()` ends them all, for a shutdown that must finish before the database closes.
 * - The recheck, one timer for the whole hub every `recheckMs` (the key cache's second) while
 *   streams are open, is the safety net for what no announcement reached (the CLI or another
 *   process on a SQLite file revoking a key, a notification lost on the way): each credential
 *   with open streams is asked once whether it is still live (`isLive`, through the key cache, so
 *   at most one lookup per credential per second) and its streams end if not; and every channel
 *   reads its entry again, which the snapshot cache answers from memory until its own revision
 *   check is due, so a change that only that check discovers reaches the streams too.
 *   Credentials are opaque strings here, so whatever else may open a stream later (a session)
 *   ends the same way.
 *
 * Transport-independent: a stream writes to a `StreamSink` the transport gives it.
 */
import type { ConfigChanged } from "../../../src/ports/ChangeFeed.js"
import type { StreamOpening, StreamSink } from "../shared/EventStream.js"
import type { MaybeAsync } from "../shared/MaybeAsync.js"

/** What a channel needs to know of an environment's configuration: its current ETag. */
export interface CurrentEntry {
  readonly etag: string
}

export interface StreamHubOptions {
  /** The environment's current entry (the snapshot cache); throws or rejects as it does. */
  readonly current: (projectId: string, environment: string) => MaybeAsync<CurrentEntry>
  /**
   * Whether the credential a stream was opened with is still good (absent: never rechecked).
   * Throws or rejects as the key cache does; a failed check keeps the streams (and is logged).
   */
  readonly isLive?: (credential: string) => MaybeAsync<boolean>
  /** Logs a failed read (it is retried). */
  readonly logError: (cause: unknown) => void
  readonly heartbeatMs?: number
  /** How often credentials and channels are rechecked (1,000 ms, the key cache's TTL). */
  readonly recheckMs?: number
  readonly retryMs?: number
  readonly now?: () => number
}

export const HEARTBEAT = ": ping\n\n"
export const DEFAULT_HEARTBEAT_MS = 15_000
export const DEFAULT_RECHECK_MS = 1_000
const DEFAULT_RETRY_MS = 1_000

/** The OFREP 0.3.0 notification: the ETag is the event id, so a reconnecting client sends it back as `Last-Event-ID`. */
export const eventOf = (etag: string, lastModifiedSeconds: number): string =>
  `id: ${etag}\nevent: message\ndata: ${JSON.stringify({ type: "refetchEvaluation", etag, lastModified: lastModifiedSeconds })}\n\n`

class Subscriber {
  constructor(
    /** What opened the stream (an API key's id). */
    readonly credential: string,
    readonly channel: Channel,
    readonly sink: StreamSink,
    /** The ETag of the last event this stream got (or its Last-Event-ID). */
    public lastEtag: string | undefined
  ) {}
}

class Channel {
  readonly subscribers = new Set<Subscriber>()
  etag: string | undefined = undefined
  /** The serialized event of `etag`. */
  event = ""
  reading = false
  /** A change arrived during a read: read once more after it. */
  dirty = false
  retry: ReturnType<typeof setTimeout> | undefined = undefined
  constructor(readonly projectId: string, readonly environment: string) {}
}

const isNotFound = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "ResourceNotFound"

export class StreamHub {
  /** project → environment → channel. */
  private readonly channels = new Map<string, Map<string, Channel>>()
  private heartbeat: ReturnType<typeof setInterval> | undefined
  private recheck: ReturnType<typeof setInterval> | undefined
  private streams = 0
  private closed = false
  private readonly heartbeatMs: number
  private readonly recheckMs: number
  private readonly retryMs: number
  private readonly now: () => number

  constructor(private readonly options: StreamHubOptions) {
    this.heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS
    this.recheckMs = options.recheckMs ?? DEFAULT_RECHECK_MS
    this.retryMs = options.retryMs ?? DEFAULT_RETRY_MS
    this.now = options.now ?? Date.now
  }

  /** Open streams (for tests, metrics and benchmarks). */
  get size(): number {
    return this.streams
  }

  /** Whether `closeAll` has run: new streams are refused. */
  get isClosed(): boolean {
    return this.closed
  }

  /**
   * A stream of (project, environment) opened with `credential`, whose configuration is now at
   * `etag`: it starts with the event of that ETag unless `lastEventId` already names it. (Only the
   * ETag is kept: an open stream must not hold a compiled configuration alive.)
   */
  open(credential: string, projectId: string, environment: string, etag: string, lastEventId: string | undefined): StreamOpening {
    return {
      start: (sink) => {
        if (this.closed) {
          sink.end()
          return () => {}
        }
        const channel = this.channelOf(projectId, environment)
        if (channel.etag === undefined) this.adopt(channel, etag)
        const subscriber = new Subscriber(credential, channel, sink, lastEventId)
        channel.subscribers.add(subscriber)
        this.streams++
        this.startTimers()
        if (lastEventId !== etag) {
          sink.write(channel.etag === etag ? channel.event : eventOf(etag, this.seconds()))
          subscriber.lastEtag = etag
        }
        // The entry read for this connection may be newer or older than what the channel last saw.
        if (channel.etag !== etag) this.read(channel)
        return () => this.detach(subscriber)
      }
    }
  }

  /** A committed change (the change feed): the channels it may touch read their entry again. */
  changed(change: ConfigChanged): void {
    const project = this.channels.get(change.projectId)
    if (project === undefined) return
    const everyEnvironment = change.environments === "all" || change.kind === "environment" || change.kind === "project"
    for (const channel of project.values()) {
      if (everyEnvironment || change.environments.includes(channel.environment)) this.read(channel)
    }
  }

  /**
   * The project's configuration may have changed, nobody knows where (a revision check found a
   * newer revision): every channel of the project reads its entry again.
   */
  projectChanged(projectId: string): void {
    const project = this.channels.get(projectId)
    if (project !== undefined) for (const channel of project.values()) this.read(channel)
  }

  /** The credential (an API key's id) was revoked: its streams end now. */
  revoked(credential: string): void {
    for (const project of this.channels.values()) {
      for (const channel of project.values()) {
        for (const subscriber of channel.subscribers) if (subscriber.credential === credential) this.end(subscriber)
      }
    }
  }

  /** Ends every stream and refuses new ones (shutdown, before the database closes). */
  closeAll(): void {
    this.closed = true
    this.stopTimers()
    for (const project of this.channels.values()) {
      for (const channel of project.values()) for (const subscriber of channel.subscribers) this.end(subscriber)
    }
  }

  private seconds(): number {
    return Math.floor(this.now() / 1000)
  }

  private channelOf(projectId: string, environment: string): Channel {
    let project = this.channels.get(projectId)
    if (project === undefined) {
      project = new Map()
      this.channels.set(projectId, project)
    }
    let channel = project.get(environment)
    if (channel === undefined) {
      channel = new Channel(projectId, environment)
      project.set(environment, channel)
    }
    return channel
  }

  private adopt(channel: Channel, etag: string): void {
    channel.etag = etag
    channel.event = eventOf(etag, this.seconds())
  }

  private startTimers(): void {
    if (this.heartbeat !== undefined) return
    this.heartbeat = setInterval(() => this.ping(), this.heartbeatMs)
    this.heartbeat.unref()
    this.recheck = setInterval(() => this.recheckAll(), this.recheckMs)
    this.recheck.unref()
  }

  private stopTimers(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat)
    if (this.recheck !== undefined) clearInterval(this.recheck)
    this.heartbeat = undefined
    this.recheck = undefined
  }

  /** The safety net (see the file's comment): every credential once, then every channel. */
  private recheckAll(): void {
    const isLive = this.options.isLive
    if (isLive !== undefined) {
      const credentials = new Set<string>()
      for (const project of this.channels.values()) {
        for (const channel of project.values()) for (const subscriber of channel.subscribers) credentials.add(subscriber.credential)
      }
      for (const credential of credentials) {
        const ended = (live: boolean) => {
          if (!live) this.revoked(credential)
        }
        try {
          const live = isLive(credential)
          if (live instanceof Promise) live.then(ended, this.options.logError)
          else ended(live)
        } catch (error) {
          this.options.logError(error)
        }
      }
    }
    for (const project of this.channels.values()) for (const channel of project.values()) this.read(channel)
  }

  private ping(): void {
    for (const project of this.channels.values()) {
      for (const channel of project.values()) for (const subscriber of channel.subscribers) subscriber.sink.write(HEARTBEAT)
    }
  }

  /** Reads the channel's entry once (a read in flight absorbs this request into one more read after it). */
  private read(channel: Channel): void {
    if (channel.reading) {
      channel.dirty = true
      return
    }
    if (channel.retry !== undefined) clearTimeout(channel.retry)
    channel.retry = undefined
    channel.reading = true
    channel.dirty = false
    let current: MaybeAsync<CurrentEntry>
    try {
      current = this.options.current(channel.projectId, channel.environment)
    } catch (error) {
      this.failed(channel, error)
      return
    }
    if (current instanceof Promise) current.then((entry) => this.apply(channel, entry), (error: unknown) => this.failed(channel, error))
    else this.apply(channel, current)
  }

  private apply(channel: Channel, entry: CurrentEntry): void {
    channel.reading = false
    if (entry.etag !== channel.etag) {
      this.adopt(channel, entry.etag)
      const event = channel.event
      for (const subscriber of channel.subscribers) {
        if (subscriber.lastEtag === entry.etag) continue
        subscriber.lastEtag = entry.etag
        subscriber.sink.write(event)
      }
    }
    if (channel.dirty && channel.subscribers.size > 0) this.read(channel)
  }

  private failed(channel: Channel, error: unknown): void {
    channel.reading = false
    if (isNotFound(error)) {
      // The project or environment is gone: nothing more will ever come on these streams.
      for (const subscriber of channel.subscribers) this.end(subscriber)
      return
    }
    this.options.logError(error)
    if (channel.subscribers.size === 0 || this.closed) return
    channel.retry = setTimeout(() => {
      channel.retry = undefined
      this.read(channel)
    }, this.retryMs)
    channel.retry.unref()
  }

  private end(subscriber: Subscriber): void {
    this.detach(subscriber)
    subscriber.sink.end()
  }

  private detach(subscriber: Subscriber): void {
    const channel = subscriber.channel
    if (!channel.subscribers.delete(subscriber)) return
    this.streams--
    if (channel.subscribers.size > 0) return
    if (channel.retry !== undefined) clearTimeout(channel.retry)
    const project = this.channels.get(channel.projectId)
    if (project?.get(channel.environment) === channel) project.delete(channel.environment)
    if (project?.size === 0) this.channels.delete(channel.projectId)
    if (this.streams === 0) this.stopTimers()
  }
}
