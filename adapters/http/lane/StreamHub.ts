/**
 * The live change streams (`GET /v1/stream`) of one app: every open stream, grouped by the
 * (project, environment) it follows, fed from the change feed (never from HTTP traffic). The
 * streams, channels, heartbeats, coalesced reads, retries and rechecks are the shared hub's
 * (shared/SseHub.ts); what is decided here is what a channel reads and sends.
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
 *   `retryMs` (a timer per failing channel, none otherwise); an environment or project that is
 *   gone ends its streams.
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
 */
import type { ConfigChanged } from "../../../src/ports/ChangeFeed.js"
import type { StreamOpening } from "../shared/EventStream.js"
import type { MaybeAsync } from "../shared/MaybeAsync.js"
import { type SseChannel, SseHub } from "../shared/SseHub.js"

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

const DEFAULT_RETRY_MS = 1_000

/** The OFREP 0.3.0 notification: the ETag is the event id, so a reconnecting client sends it back as `Last-Event-ID`. */
export const eventOf = (etag: string, lastModifiedSeconds: number): string =>
  `id: ${etag}\nevent: message\ndata: ${JSON.stringify({ type: "refetchEvaluation", etag, lastModified: lastModifiedSeconds })}\n\n`

/** A channel's last ETag and its serialized event (only the ETag is kept, never a configuration). */
interface ChannelState {
  etag: string | undefined
  event: string
}

/** The ETag of the last event a stream got (or its Last-Event-ID). */
interface StreamState {
  lastEtag: string | undefined
}

type Channel = SseChannel<ChannelState, StreamState>

const isNotFound = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "ResourceNotFound"

export class StreamHub {
  private readonly hub: SseHub<ChannelState, StreamState, CurrentEntry>
  private readonly now: () => number

  constructor(private readonly options: StreamHubOptions) {
    this.now = options.now ?? Date.now
    this.hub = new SseHub({
      source: {
        read: (channel) => options.current(channel.topic, channel.name),
        deliver: (channel, entry) => {
          this.apply(channel, entry)
          return false
        },
        gone: isNotFound
      },
      logError: options.logError,
      ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
      ...(options.recheckMs === undefined ? {} : { tickMs: options.recheckMs }),
      retryMs: options.retryMs ?? DEFAULT_RETRY_MS
    })
  }

  /** Open streams (for tests, metrics and benchmarks). */
  get size(): number {
    return this.hub.size
  }

  /** Whether `closeAll` has run: new streams are refused. */
  get isClosed(): boolean {
    return this.hub.isClosed
  }

  /**
   * A stream of (project, environment) opened with `credential`, whose configuration is now at
   * `etag`: it starts with the event of that ETag unless `lastEventId` already names it. (Only the
   * ETag is kept: an open stream must not hold a compiled configuration alive.)
   */
  open(credential: string, projectId: string, environment: string, etag: string, lastEventId: string | undefined): StreamOpening {
    const isLive = this.options.isLive
    return this.hub.open(projectId, environment, isLive === undefined ? { key: credential } : { key: credential, check: () => isLive(credential) }, {
      channel: () => ({ etag: undefined, event: "" }),
      stream: (channel) => {
        if (channel.state.etag === undefined) this.adopt(channel, etag)
        return { lastEtag: lastEventId }
      },
      started: (stream) => {
        const channel = stream.channel
        if (lastEventId !== etag) {
          stream.sink.write(channel.state.etag === etag ? channel.state.event : eventOf(etag, this.seconds()))
          stream.state.lastEtag = etag
        }
        // The entry read for this connection may be newer or older than what the channel last saw.
        if (channel.state.etag !== etag) this.hub.read(channel)
      }
    })
  }

  /** A committed change (the change feed): the channels it may touch read their entry again. */
  changed(change: ConfigChanged): void {
    const everyEnvironment = change.environments === "all" || change.kind === "environment" || change.kind === "project"
    for (const channel of this.hub.channelsOf(change.projectId)) {
      if (everyEnvironment || change.environments.includes(channel.name)) this.hub.read(channel)
    }
  }

  /**
   * The project's configuration may have changed, nobody knows where (a revision check found a
   * newer revision): every channel of the project reads its entry again.
   */
  projectChanged(projectId: string): void {
    for (const channel of this.hub.channelsOf(projectId)) this.hub.read(channel)
  }

  /** The credential (an API key's id) was revoked: its streams end now. */
  revoked(credential: string): void {
    this.hub.endCredential(credential)
  }

  /** Ends every stream and refuses new ones (shutdown, before the database closes). */
  closeAll(): void {
    this.hub.closeAll()
  }

  private seconds(): number {
    return Math.floor(this.now() / 1000)
  }

  private adopt(channel: Channel, etag: string): void {
    channel.state.etag = etag
    channel.state.event = eventOf(etag, this.seconds())
  }

  /** A read's entry: one event, written to each stream that has not had it, when the ETag moved. */
  private apply(channel: Channel, entry: CurrentEntry): void {
    if (entry.etag === channel.state.etag) return
    this.adopt(channel, entry.etag)
    const event = channel.state.event
    for (const stream of channel.streams) {
      if (stream.state.lastEtag === entry.etag) continue
      stream.state.lastEtag = entry.etag
      stream.sink.write(event)
    }
  }
}
