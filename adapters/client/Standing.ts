/**
 * Where a client stands with its server, and the events that say so:
 *
 * - `stale` when the server cannot be reached (the last configuration is served), `recovered`
 *   when it answers again;
 * - `error` for a problem someone must fix (a refused configuration, a refusal of the key, project
 *   or environment): each distinct problem told once until the server answers well, and told again
 *   to an `error` listener that subscribes while it stands. That replay is what lets a refusal met
 *   during `createClient` (before anyone could listen) reach a listener added right after it.
 */
import type { Emitter } from "./Emitter.js"
import type { FlagportServerError } from "./Refusal.js"
import type { ClientEventName, ClientEvents } from "./Types.js"

interface Problem {
  readonly message: string
  readonly refusal: FlagportServerError | undefined
}

export class Standing {
  /** A stream is connected: polling may rest. */
  streamUp = false
  private unreachable = false
  /** The problem standing now (the last one reported), until the server answers well. */
  private problem: Problem | null = null
  /** Every problem reported since the server last answered well. */
  private readonly reported = new Set<string>()

  constructor(
    private readonly events: Emitter,
    /** True once a configuration (the server's or a bootstrap) is installed: before, nothing is `stale` or `recovered`. */
    private readonly serving: () => boolean,
    /** Ends the polling loop's current wait. */
    private readonly wakePolling: () => void
  ) {}

  /** The last attempt to reach the server failed. */
  get stale(): boolean {
    return this.unreachable
  }

  get refusal(): FlagportServerError | undefined {
    return this.problem?.refusal
  }

  /** `events.on`, plus the replay of the standing problem to a new `error` listener. */
  subscribe<E extends ClientEventName>(event: E, listener: ClientEvents[E]): () => void {
    const standing = event === "error" && !this.events.has(event, listener) ? this.problem : null
    const off = this.events.on(event, listener)
    if (standing !== null) {
      // Not from inside `on`: the caller finishes subscribing (and whatever follows it) first.
      queueMicrotask(() => {
        if (this.problem === standing && this.events.has(event, listener)) {
          this.events.tell(listener as ClientEvents["error"], standing.message, standing.refusal)
        }
      })
    }
    return off
  }

  /** The server answered with a configuration (new or unchanged): leave `stale` or an earlier problem behind. */
  reached(): void {
    const troubled = this.unreachable || this.problem !== null
    this.unreachable = false
    this.problem = null
    this.reported.clear()
    if (troubled && this.serving()) this.events.emit("recovered")
  }

  /**
   * A stream connected (200, text/event-stream): the server answers, so `stale` is over. It
   * reconnects with the ETag the client holds, so an unchanged configuration brings no event and
   * no refetch: without this the client would stay `stale` until some flag changed. A problem the
   * operator must fix (a refused configuration) is not cured by a connection and stays reported.
   */
  streamReached(): void {
    this.streamUp = true
    if (!this.unreachable) return
    this.unreachable = false
    if (this.problem === null && this.serving()) this.events.emit("recovered")
  }

  lost(message: string): void {
    if (this.unreachable) return
    this.unreachable = true
    // With the stream up nothing reconnects, and a paused poll sleeps a whole interval.
    if (this.streamUp) this.wakePolling()
    if (this.serving()) this.events.emit("stale", message)
  }

  /** A problem someone must fix: told once until the server answers well. */
  report(message: string, refusal?: FlagportServerError): void {
    if (this.reported.has(message)) return
    this.reported.add(message)
    this.problem = { message, refusal }
    this.events.emit("error", message, refusal)
  }
}
