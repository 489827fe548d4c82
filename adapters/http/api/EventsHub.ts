/**
 * The open management events streams (`GET /v1/projects/{p}/events`) of one app, grouped by
 * project. The events are the project's audit entries (ManagementEvent.ts), read from the
 * database, so a write made by any process (another server, the CLI, the scheduler) reaches every
 * stream of every process, with its actor and time.
 *
 * When a project's channel reads:
 * - at once when the change feed announces a change of the project (this process's writes, and
 *   other processes' where the feed carries them: PostgreSQL's NOTIFY, the SQLite file watch);
 * - every `pollMs` (1 s) while streams are open, for the writes no announcement reaches (the
 *   writes that serve nothing new, such as schedules, keys or change requests, announce nothing).
 * One read per channel whatever the number of its streams; reads arriving during one are
 * coalesced into one more after it.
 *
 * Positions are the audit log's append order, but on PostgreSQL two writes that are not
 * serialized may commit out of that order. So a channel re-reads entries for `settleMs` (10 s,
 * by their time) after it first saw a later one, and each stream remembers which of those it was
 * sent: a late commit is still delivered, and nothing twice. (An event may then arrive after one
 * with a higher id; ids never repeat.)
 *
 * Every `pollMs` each credential with open streams is asked once whether it may still read the
 * project (`check`: the key not revoked, the session not ended, the person still a member); its
 * streams end if not. A key's revocation announced on the change feed asks at once. One heartbeat
 * timer writes `: ping` to every stream every 15 s. `closeAll` ends every stream (shutdown).
 */
import type { ManagementEvent } from "../../../src/domain/audit/ManagementEvent.js"
import type { StreamOpening, StreamSink } from "../shared/EventStream.js"

/** An entry as the hub reads it: its position, its time (to know when it is settled) and its event. */
export interface PositionedEvent {
  readonly position: number
  readonly at: string
  readonly event: ManagementEvent
}

/** Who opened a stream: `key` groups the streams opened with the same credentials. */
export interface StreamCredential {
  readonly key: string
  /** Whether these credentials may still read the project (false ends their streams). */
  readonly check: () => Promise<boolean>
  /** The event as these credentials see it, or undefined to leave it out (a key bound to another environment); all of it when absent. */
  readonly view?: (event: ManagementEvent) => ManagementEvent | undefined
}

export interface EventsHubOptions {
  /** The project's events after a position, oldest first (at most one batch of `batch`). */
  readonly read: (projectId: string, after: number) => Promise<ReadonlyArray<PositionedEvent>>
  readonly logError: (cause: unknown) => void
  /** The size of one read (when a read fills it, the channel reads again at once). */
  readonly batch: number
  readonly pollMs?: number
  readonly heartbeatMs?: number
  readonly settleMs?: number
  readonly now?: () => number
}

export const HEARTBEAT = ": ping\n\n"
const DEFAULT_POLL_MS = 1_000
const DEFAULT_HEARTBEAT_MS = 15_000
const DEFAULT_SETTLE_MS = 10_000
/** How long a client waits before reconnecting after the stream ends (the SSE `retry` field). */
export const RECONNECT_MS = 2_000

/** One event in the SSE format: the position is the id a reconnecting client sends back. */
export const eventLine = (event: ManagementEvent): string => `id: ${event.id}\nevent: change\ndata: ${JSON.stringify(event)}\n\n`

/** The first event of every stream: where it starts (a client that reconnects sends it back). */
export const readyLine = (position: number): string =>
  `retry: ${RECONNECT_MS}\nid: ${position}\nevent: ready\ndata: ${JSON.stringify({ id: String(position) })}\n\n`

class Subscriber {
  /** Every position at or below `low` has been dealt with; `sent` holds the ones above it that were sent. */
  readonly sent = new Set<number>()
  constructor(readonly channel: Channel, readonly sink: StreamSink, readonly credential: StreamCredential, public low: number) {}
}

class Channel {
  readonly subscribers = new Set<Subscriber>()
  reading = false
  dirty = false
  constructor(readonly projectId: string, public floor: number) {}
}

export class EventsHub {
  private readonly channels = new Map<string, Channel>()
  private heartbeat: ReturnType<typeof setInterval> | undefined
  private poll: ReturnType<typeof setInterval> | undefined
  private streams = 0
  private closed = false
  private readonly pollMs: number
  private readonly heartbeatMs: number
  private readonly settleMs: number
  private readonly now: () => number

  constructor(private readonly options: EventsHubOptions) {
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS
    this.heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS
    this.settleMs = options.settleMs ?? DEFAULT_SETTLE_MS
    this.now = options.now ?? Date.now
  }

  /** Open streams. */
  get size(): number {
    return this.streams
  }

  /** A stream of `projectId`'s events after position `start` (the project's latest, or the client's `Last-Event-ID`). */
  open(projectId: string, start: number, credential: StreamCredential): StreamOpening {
    return {
      start: (sink) => {
        if (this.closed) {
          sink.end()
          return () => {}
        }
        let channel = this.channels.get(projectId)
        if (channel === undefined) {
          channel = new Channel(projectId, start)
          this.channels.set(projectId, channel)
        }
        // A client resuming from further back makes the channel read from there; the others skip what they had.
        channel.floor = Math.min(channel.floor, start)
        const subscriber = new Subscriber(channel, sink, credential, start)
        channel.subscribers.add(subscriber)
        this.streams++
        this.startTimers()
        sink.write(readyLine(start))
        this.read(channel)
        return () => this.detach(subscriber)
      }
    }
  }

  /** The change feed announced a change of the project: its channel reads now. */
  changed(projectId: string): void {
    const channel = this.channels.get(projectId)
    if (channel !== undefined) this.read(channel)
  }

  /** Asks every credential with open streams whether it may still read (a key was revoked somewhere). */
  recheck(): void {
    const byKey = new Map<string, { readonly credential: StreamCredential; readonly subscribers: Array<Subscriber> }>()
    for (const channel of this.channels.values()) {
      for (const subscriber of channel.subscribers) {
        const group = byKey.get(subscriber.credential.key)
        if (group === undefined) byKey.set(subscriber.credential.key, { credential: subscriber.credential, subscribers: [subscriber] })
        else group.subscribers.push(subscriber)
      }
    }
    for (const { credential, subscribers } of byKey.values()) {
      credential.check().then(
        (allowed) => {
          if (!allowed) for (const subscriber of subscribers) this.end(subscriber)
        },
        this.options.logError
      )
    }
  }

  /** Ends every stream and refuses new ones (shutdown, before the database closes). */
  closeAll(): void {
    this.closed = true
    this.stopTimers()
    for (const channel of this.channels.values()) for (const subscriber of channel.subscribers) this.end(subscriber)
  }

  private startTimers(): void {
    if (this.heartbeat !== undefined) return
    this.heartbeat = setInterval(() => this.ping(), this.heartbeatMs)
    this.heartbeat.unref()
    this.poll = setInterval(() => {
      this.recheck()
      for (const channel of this.channels.values()) this.read(channel)
    }, this.pollMs)
    this.poll.unref()
  }

  private stopTimers(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat)
    if (this.poll !== undefined) clearInterval(this.poll)
    this.heartbeat = undefined
    this.poll = undefined
  }

  private ping(): void {
    for (const channel of this.channels.values()) for (const subscriber of channel.subscribers) subscriber.sink.write(HEARTBEAT)
  }

  private read(channel: Channel): void {
    if (channel.reading) {
      channel.dirty = true
      return
    }
    channel.reading = true
    channel.dirty = false
    this.options.read(channel.projectId, channel.floor).then(
      (events) => this.deliver(channel, events),
      (error: unknown) => {
        channel.reading = false
        // Tried again at the next poll (or change).
        this.options.logError(error)
      }
    )
  }

  private deliver(channel: Channel, events: ReadonlyArray<PositionedEvent>): void {
    channel.reading = false
    for (const { position, event } of events) {
      for (const subscriber of channel.subscribers) {
        if (position <= subscriber.low || subscriber.sent.has(position)) continue
        subscriber.sent.add(position)
        const shown = subscriber.credential.view === undefined ? event : subscriber.credential.view(event)
        if (shown !== undefined) subscriber.sink.write(eventLine(shown))
      }
    }
    // The floor moves over the leading entries old enough that nothing before them can still commit.
    const settledBefore = this.now() - this.settleMs
    for (const { position, at } of events) {
      if (Date.parse(at) > settledBefore) break
      channel.floor = position
    }
    for (const subscriber of channel.subscribers) {
      if (channel.floor <= subscriber.low) continue
      subscriber.low = channel.floor
      for (const position of subscriber.sent) if (position <= subscriber.low) subscriber.sent.delete(position)
    }
    const full = events.length >= this.options.batch
    // A full batch none of which is settled would be read again as it is: read past it instead.
    if (full && channel.floor < events[0]!.position) channel.floor = events[events.length - 1]!.position
    if (channel.subscribers.size > 0 && (channel.dirty || full)) this.read(channel)
  }

  private end(subscriber: Subscriber): void {
    this.detach(subscriber)
    subscriber.sink.end()
  }

  private detach(subscriber: Subscriber): void {
    const channel = subscriber.channel
    if (!channel.subscribers.delete(subscriber)) return
    this.streams--
    if (channel.subscribers.size === 0 && this.channels.get(channel.projectId) === channel) this.channels.delete(channel.projectId)
    if (this.streams === 0) this.stopTimers()
  }
}
