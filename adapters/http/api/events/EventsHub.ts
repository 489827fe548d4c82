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
 * Positions are the audit log's commit order (ports/AuditLog.ts): a read that sees a position
 * sees every one below it, so a channel reads on from the last position it read and a write that
 * commits late (a transaction held open, on PostgreSQL) comes after it, never below it.
 *
 * Every `pollMs` each credential with open streams is asked once whether it may still read the
 * project (`check`: the key not revoked, the session not ended, the person still a member); its
 * streams end if not. A key's revocation announced on the change feed asks at once. One heartbeat
 * timer writes `: ping` to every stream every 15 s. `closeAll` ends every stream (shutdown). The
 * streams, channels, timers, coalesced reads and rechecks are the shared hub's (shared/SseHub.ts);
 * what is decided here is what a channel reads and which events each stream is sent.
 */
import type { ManagementEvent } from "../../../../src/domain/audit/ManagementEvent.js"
import type { StreamOpening } from "../../shared/EventStream.js"
import { type SseChannel, type SseCredential, SseHub } from "../../shared/SseHub.js"

/** An entry as the hub reads it: its position and its event. */
export interface PositionedEvent {
  readonly position: number
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
}

/** How long a client waits before reconnecting after the stream ends (the SSE `retry` field). */
export const RECONNECT_MS = 2_000

/** One event in the SSE format: the position is the id a reconnecting client sends back. */
export const eventLine = (event: ManagementEvent): string => `id: ${event.id}\nevent: change\ndata: ${JSON.stringify(event)}\n\n`

/** The first event of every stream: where it starts (a client that reconnects sends it back). */
export const readyLine = (position: number): string =>
  `retry: ${RECONNECT_MS}\nid: ${position}\nevent: ready\ndata: ${JSON.stringify({ id: String(position) })}\n\n`

/** Where a channel reads from: every position at or below `floor` was read for all its streams. */
interface ChannelState {
  floor: number
}

/** Every position at or below `low` has been dealt with (sent, or before the stream's start). */
interface StreamState {
  low: number
  readonly view: StreamCredential["view"]
}

type Channel = SseChannel<ChannelState, StreamState>

/** What one read found, and the position it read after. */
interface Read {
  readonly after: number
  readonly events: ReadonlyArray<PositionedEvent>
}

/** A project's events are one channel (no name within the topic). */
const WHOLE_PROJECT = ""

export class EventsHub {
  private readonly hub: SseHub<ChannelState, StreamState, Read>

  constructor(private readonly options: EventsHubOptions) {
    this.hub = new SseHub({
      // A failed read is tried again at the next poll (or change).
      source: {
        read: (channel) => {
          const after = channel.state.floor
          return options.read(channel.topic, after).then((events) => ({ after, events }))
        },
        deliver: (channel, read) => this.deliver(channel, read)
      },
      logError: options.logError,
      ...(options.pollMs === undefined ? {} : { tickMs: options.pollMs }),
      ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs })
    })
  }

  /** Open streams. */
  get size(): number {
    return this.hub.size
  }

  /** A stream of `projectId`'s events after position `start` (the project's latest, or the client's `Last-Event-ID`). */
  open(projectId: string, start: number, credential: StreamCredential): StreamOpening {
    // Rechecked once per project: the answer is about reading this project, not another one the
    // same credentials also follow (a person may leave one project and stay in the next).
    const recheck: SseCredential = { key: `${projectId}\u0000${credential.key}`, check: credential.check }
    return this.hub.open(projectId, WHOLE_PROJECT, recheck, {
      channel: () => ({ floor: start }),
      stream: (channel) => {
        // A client resuming from further back makes the channel read from there; the others skip what they had.
        channel.state.floor = Math.min(channel.state.floor, start)
        return { low: start, view: credential.view }
      },
      started: (stream) => {
        stream.sink.write(readyLine(start))
        this.hub.read(stream.channel)
      }
    })
  }

  /** The change feed announced a change of the project: its channel reads now. */
  changed(projectId: string): void {
    for (const channel of this.hub.channelsOf(projectId)) this.hub.read(channel)
  }

  /** Asks every credential with open streams whether it may still read (a key was revoked somewhere). */
  recheck(): void {
    this.hub.recheck()
  }

  /** Ends every stream and refuses new ones (shutdown, before the database closes). */
  closeAll(): void {
    this.hub.closeAll()
  }

  /**
   * A read's events to each stream that has not had them; answers whether a full batch calls for
   * another read. A stream that joined during the read from further back than it read (a client
   * resuming) is left to the next read, which starts from there: so each stream gets every event,
   * in order.
   */
  private deliver(channel: Channel, { after, events }: Read): boolean {
    for (const { position, event } of events) {
      for (const stream of channel.streams) {
        const state = stream.state
        if (position <= state.low || state.low < after) continue
        state.low = position
        const shown = state.view === undefined ? event : state.view(event)
        if (shown !== undefined) stream.sink.write(eventLine(shown))
      }
    }
    // The floor moves on unless a stream lowered it while the read ran.
    const last = events[events.length - 1]
    if (last !== undefined && channel.state.floor === after) channel.state.floor = last.position
    return events.length >= this.options.batch
  }
}
