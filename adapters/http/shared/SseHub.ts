/**
 * The one mechanism behind both kinds of server-sent-event stream: the change streams
 * (`GET /v1/stream`, lane/StreamHub.ts) and the management events (`GET /v1/projects/{p}/events`,
 * api's EventsHub.ts). What a kind decides is only what its channels read and what a read sends
 * (its `SseSource`); everything else is here, once:
 *
 * - Channels: open streams grouped by what they follow, a topic (the project) and a name within it
 *   (an environment, or none). One read per channel serves all its streams; a channel lives while
 *   it has streams.
 * - Reads coalesce: a read asked for while one is in flight becomes one more read after it, so a
 *   burst may become one read but the last request is never lost. A read that finds more waiting
 *   (the source says so) reads again at once. A failed read is logged and retried after `retryMs`
 *   (a timer per failing channel) or at the next tick; one the source calls `gone` (the project or
 *   environment no longer exists) ends the channel's streams instead.
 * - One heartbeat timer for the whole hub writes `: ping` to every stream every `heartbeatMs`
 *   (15 s), so proxies keep idle streams open; no timer per stream.
 * - One tick timer every `tickMs` (1 s) while streams are open, the safety net for what no
 *   announcement reached: each credential with open streams is asked once whether it may still
 *   read (`check`), its streams ending if not (a failed check keeps them, logged), and every
 *   channel reads again.
 * - `endCredential` ends a credential's streams at once (a key's revocation announced on the change
 *   feed); `closeAll` ends every stream and refuses new ones (a shutdown, before the database closes).
 *
 * Timers run only while streams are open and never hold the process up (unref). Transport
 * independent: a stream writes to the `StreamSink` its transport gives it (EventStream.ts).
 */
import type { StreamOpening, StreamSink } from "./EventStream.js"
import type { MaybeAsync } from "./MaybeAsync.js"

/** A comment line: keeps an idle stream open through proxies, ignored by every client. */
export const HEARTBEAT = ": ping\n\n"
export const DEFAULT_HEARTBEAT_MS = 15_000
export const DEFAULT_TICK_MS = 1_000

/** Who opened a stream. Streams opened with the same `key` are rechecked together, once a tick. */
export interface SseCredential {
  readonly key: string
  /**
   * Whether these credentials may still read what their streams follow (false ends them; absent:
   * never rechecked). A check that throws or rejects keeps the streams and is logged.
   */
  readonly check?: () => MaybeAsync<boolean>
}

/** One open stream: where it writes, who opened it, and what its kind keeps for it (`state`). */
export class SseStream<C, S> {
  constructor(readonly channel: SseChannel<C, S>, readonly sink: StreamSink, readonly credential: SseCredential, public state: S) {}
}

/** The streams that follow one thing, read once for all of them; `state` is its kind's. */
export class SseChannel<C, S> {
  readonly streams = new Set<SseStream<C, S>>()
  reading = false
  /** A read was asked for during one: read once more after it. */
  dirty = false
  retry: ReturnType<typeof setTimeout> | undefined = undefined
  constructor(readonly topic: string, readonly name: string, public state: C) {}
}

/** What a kind of stream decides: what a channel reads, and what a read sends to its streams. */
export interface SseSource<C, S, A> {
  /** What the channel follows, now. Throws or rejects when it cannot be read. */
  readonly read: (channel: SseChannel<C, S>) => MaybeAsync<A>
  /** Writes what a read found to the channel's streams; true when more is waiting (read again at once). */
  readonly deliver: (channel: SseChannel<C, S>, found: A) => boolean
  /** Whether a failed read means the thing followed is gone, for good: its streams end. */
  readonly gone?: (error: unknown) => boolean
}

export interface SseHubOptions<C, S, A> {
  readonly source: SseSource<C, S, A>
  /** Logs a failed read or check. */
  readonly logError: (cause: unknown) => void
  readonly heartbeatMs?: number
  /** How often credentials are rechecked and every channel reads again (1,000 ms). */
  readonly tickMs?: number
  /** How long after a failed read it is tried again; absent: at the next tick. */
  readonly retryMs?: number
}

/** How a new stream joins its channel: the states of a new channel and of the stream, then its first words. */
export interface SseJoin<C, S> {
  readonly channel: () => C
  readonly stream: (channel: SseChannel<C, S>) => S
  /** Runs once the stream is counted: writes what it starts with, asks for a read if need be. */
  readonly started: (stream: SseStream<C, S>) => void
}

export class SseHub<C, S, A> {
  /** topic → name → channel. */
  private readonly channels = new Map<string, Map<string, SseChannel<C, S>>>()
  private heartbeat: ReturnType<typeof setInterval> | undefined
  private tick: ReturnType<typeof setInterval> | undefined
  private streams = 0
  private closed = false
  private readonly heartbeatMs: number
  private readonly tickMs: number

  constructor(private readonly options: SseHubOptions<C, S, A>) {
    this.heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS
    this.tickMs = options.tickMs ?? DEFAULT_TICK_MS
  }

  /** Open streams. */
  get size(): number {
    return this.streams
  }

  /** Whether `closeAll` has run: new streams are refused. */
  get isClosed(): boolean {
    return this.closed
  }

  /** A stream of the channel (`topic`, `name`), started when its transport has sent the headers. */
  open(topic: string, name: string, credential: SseCredential, join: SseJoin<C, S>): StreamOpening {
    return {
      start: (sink) => {
        if (this.closed) {
          sink.end()
          return () => {}
        }
        const channel = this.channelOf(topic, name, join)
        const stream = new SseStream(channel, sink, credential, join.stream(channel))
        channel.streams.add(stream)
        this.streams++
        this.startTimers()
        join.started(stream)
        return () => this.detach(stream)
      }
    }
  }

  /** The channels of a topic (none when nothing follows it). */
  channelsOf(topic: string): Iterable<SseChannel<C, S>> {
    return this.channels.get(topic)?.values() ?? []
  }

  /** Every channel of the hub. */
  *allChannels(): Iterable<SseChannel<C, S>> {
    for (const topic of this.channels.values()) yield* topic.values()
  }

  /** Reads the channel once (a read in flight absorbs this request into one more read after it). */
  read(channel: SseChannel<C, S>): void {
    if (channel.reading) {
      channel.dirty = true
      return
    }
    if (channel.retry !== undefined) clearTimeout(channel.retry)
    channel.retry = undefined
    channel.reading = true
    channel.dirty = false
    let found: MaybeAsync<A>
    try {
      found = this.options.source.read(channel)
    } catch (error) {
      this.failed(channel, error)
      return
    }
    if (found instanceof Promise) found.then((value) => this.deliver(channel, value), (error: unknown) => this.failed(channel, error))
    else this.deliver(channel, found)
  }

  /** Asks every credential with open streams, once each, whether it may still read. */
  recheck(): void {
    const credentials = new Map<string, SseCredential>()
    for (const channel of this.allChannels()) {
      for (const stream of channel.streams) if (!credentials.has(stream.credential.key)) credentials.set(stream.credential.key, stream.credential)
    }
    for (const credential of credentials.values()) {
      if (credential.check === undefined) continue
      const answered = (allowed: boolean) => {
        if (!allowed) this.endCredential(credential.key)
      }
      try {
        const allowed = credential.check()
        if (allowed instanceof Promise) allowed.then(answered, this.options.logError)
        else answered(allowed)
      } catch (error) {
        this.options.logError(error)
      }
    }
  }

  /** Ends now every stream opened with the credential `key`. */
  endCredential(key: string): void {
    for (const channel of this.allChannels()) for (const stream of channel.streams) if (stream.credential.key === key) this.end(stream)
  }

  /** Ends every stream and refuses new ones (shutdown, before the database closes). */
  closeAll(): void {
    this.closed = true
    this.stopTimers()
    for (const channel of this.allChannels()) for (const stream of channel.streams) this.end(stream)
  }

  private channelOf(topic: string, name: string, join: SseJoin<C, S>): SseChannel<C, S> {
    let named = this.channels.get(topic)
    if (named === undefined) {
      named = new Map()
      this.channels.set(topic, named)
    }
    let channel = named.get(name)
    if (channel === undefined) {
      channel = new SseChannel<C, S>(topic, name, join.channel())
      named.set(name, channel)
    }
    return channel
  }

  private startTimers(): void {
    if (this.heartbeat !== undefined) return
    this.heartbeat = setInterval(() => this.ping(), this.heartbeatMs)
    this.heartbeat.unref()
    this.tick = setInterval(() => {
      this.recheck()
      for (const channel of this.allChannels()) this.read(channel)
    }, this.tickMs)
    this.tick.unref()
  }

  private stopTimers(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat)
    if (this.tick !== undefined) clearInterval(this.tick)
    this.heartbeat = undefined
    this.tick = undefined
  }

  private ping(): void {
    for (const channel of this.allChannels()) for (const stream of channel.streams) stream.sink.write(HEARTBEAT)
  }

  private deliver(channel: SseChannel<C, S>, found: A): void {
    channel.reading = false
    const more = this.options.source.deliver(channel, found)
    if (channel.streams.size > 0 && (channel.dirty || more)) this.read(channel)
  }

  private failed(channel: SseChannel<C, S>, error: unknown): void {
    channel.reading = false
    if (this.options.source.gone?.(error) === true) {
      for (const stream of channel.streams) this.end(stream)
      return
    }
    this.options.logError(error)
    const retryMs = this.options.retryMs
    if (retryMs === undefined || channel.streams.size === 0 || this.closed) return
    channel.retry = setTimeout(() => {
      channel.retry = undefined
      this.read(channel)
    }, retryMs)
    channel.retry.unref()
  }

  private end(stream: SseStream<C, S>): void {
    this.detach(stream)
    stream.sink.end()
  }

  private detach(stream: SseStream<C, S>): void {
    const channel = stream.channel
    if (!channel.streams.delete(stream)) return
    this.streams--
    if (channel.streams.size > 0) return
    if (channel.retry !== undefined) clearTimeout(channel.retry)
    const named = this.channels.get(channel.topic)
    if (named?.get(channel.name) === channel) named.delete(channel.name)
    if (named?.size === 0) this.channels.delete(channel.topic)
    if (this.streams === 0) this.stopTimers()
  }
}
