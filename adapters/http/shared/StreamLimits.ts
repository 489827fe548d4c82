/**
 * How many streams may be open at once: per holder, per client address, and on the whole server.
 * A stream holds a socket, a file descriptor and a little memory for as long as the client likes,
 * so without bounds one caller (or one address) could take every descriptor the process has. Past
 * a bound the answer is 429 `rate_limited` with `Retry-After`.
 *
 * Two kinds of stream, each counted on its own with the same table of settings:
 * - change streams (`GET /v1/stream`), held by an API key (a client key is public, and an
 *   application may run thousands of instances): FLAGPORT_STREAMS_PER_KEY;
 * - management event streams (`GET /v1/projects/{p}/events`), held by a server key or a person
 *   (all their sessions together): FLAGPORT_EVENT_STREAMS_PER_CALLER, small, so that one person
 *   cannot use up the share of an address many people share (a proxy's, an office's).
 * Both: FLAGPORT_STREAMS_PER_ADDRESS (the client address, see TrustProxy.ts) and FLAGPORT_STREAMS_MAX
 * (or `LaneConfig.streamLimits` in code). A slot is taken when the stream starts and given back
 * when it ends, whichever side ends it.
 */
import * as Config from "effect/Config"
import type { StreamOpening } from "./EventStream.js"
export interface StreamLimitValues {
  /** Streams one API key may hold open (every stream token of the key counts as the key). */
  readonly perKey: number
  /** Streams one client address may hold open (behind a trusted proxy: the address it reports). */
  readonly perAddress: number
  /** Streams the whole server may hold open. */
  readonly total: number
  /** Management event streams one server key or one person may hold open. */
  readonly eventsPerCaller: number
}

export const DEFAULT_STREAM_LIMITS: StreamLimitValues = { perKey: 5_000, perAddress: 500, total: 10_000, eventsPerCaller: 20 }

/** Which streams a counter counts. */
export type StreamKind = "change" | "events"

/** Seconds a refused client is told to wait (`Retry-After`): about how often streams come and go. */
export const RETRY_AFTER_SECONDS = 30

/** How long a stream's slot waits for its transport to start the stream before it is given back. */
export const UNSTARTED_SLOT_MS = 10_000

/** A slot taken for a stream about to open (StreamLimits.hold). */
export interface StreamSlot {
  /** Gives the slot back now (the answer failed before the stream could open); once, like every release. */
  readonly release: () => void
  /** `opening`, holding the slot from its start until the stream ends, whichever side ends it. */
  readonly around: (opening: StreamOpening) => StreamOpening
}

/** Which bound a refused stream met: its holder's, its address's, or the server's. */
export type StreamLimitName = "perHolder" | "perAddress" | "total"

const whole = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: "Expected a whole number, at least 1", validation: (n) => n >= 1 }),
    Config.withDefault(fallback)
  )

/** Each bound's setting: the variable that configures it, named in the refusal. */
export const STREAM_LIMIT_SETTINGS: Readonly<Record<keyof StreamLimitValues, string>> = {
  perKey: "FLAGPORT_STREAMS_PER_KEY",
  perAddress: "FLAGPORT_STREAMS_PER_ADDRESS",
  total: "FLAGPORT_STREAMS_MAX",
  eventsPerCaller: "FLAGPORT_EVENT_STREAMS_PER_CALLER"
}

/** The variables of STREAM_LIMIT_SETTINGS (whole numbers >= 1), with the defaults above. */
export const streamLimitsConfig: Config.Config<StreamLimitValues> = Config.all({
  perKey: whole(STREAM_LIMIT_SETTINGS.perKey, DEFAULT_STREAM_LIMITS.perKey),
  perAddress: whole(STREAM_LIMIT_SETTINGS.perAddress, DEFAULT_STREAM_LIMITS.perAddress),
  total: whole(STREAM_LIMIT_SETTINGS.total, DEFAULT_STREAM_LIMITS.total),
  eventsPerCaller: whole(STREAM_LIMIT_SETTINGS.eventsPerCaller, DEFAULT_STREAM_LIMITS.eventsPerCaller)
})

export class StreamLimits {
  private readonly byKey = new Map<string, number>()
  private readonly byAddress = new Map<string, number>()
  private open = 0

  constructor(
    readonly limits: StreamLimitValues = DEFAULT_STREAM_LIMITS,
    readonly kind: StreamKind = "change"
  ) {}

  /** The holder's bound: per key for change streams, per key or person for event streams. */
  private get perHolder(): number {
    return this.kind === "change" ? this.limits.perKey : this.limits.eventsPerCaller
  }

  /** The bound a new stream of `keyId` (the holder) from `address` would pass, or undefined when it fits. */
  check(keyId: string, address: string | undefined): StreamLimitName | undefined {
    if (this.open >= this.limits.total) return "total"
    if ((this.byKey.get(keyId) ?? 0) >= this.perHolder) return "perHolder"
    if (address !== undefined && (this.byAddress.get(address) ?? 0) >= this.limits.perAddress) return "perAddress"
    return undefined
  }

  /** The refusal's message, naming the bound and its setting. */
  refusal(name: StreamLimitName): string {
    return refusalMessage(name, this.limits, this.kind)
  }

  /** Takes a slot (after `check`); the function it returns gives it back, once. */
  take(keyId: string, address: string | undefined): () => void {
    this.open++
    bump(this.byKey, keyId, 1)
    if (address !== undefined) bump(this.byAddress, address, 1)
    let given = false
    return () => {
      if (given) return
      given = true
      this.open--
      bump(this.byKey, keyId, -1)
      if (address !== undefined) bump(this.byAddress, address, -1)
    }
  }

  /**
   * Takes a slot (after `check`) for a stream both kinds open the same way: taken at once, so
   * that streams opening together cannot all pass the check, and given back when the stream
   * ends, or after UNSTARTED_SLOT_MS when the transport never starts it (the client left first).
   */
  hold(keyId: string, address: string | undefined): StreamSlot {
    const give = this.take(keyId, address)
    const unstarted = setTimeout(give, UNSTARTED_SLOT_MS)
    unstarted.unref()
    const release = () => {
      clearTimeout(unstarted)
      give()
    }
    return {
      release,
      around: (opening) => ({
        start: (sink) => {
          clearTimeout(unstarted)
          const detach = opening.start(sink)
          return () => {
            release()
            detach()
          }
        }
      })
    }
  }

  /** Streams open now (for tests and logs). */
  get size(): number {
    return this.open
  }
}

const bump = (map: Map<string, number>, id: string, by: number) => {
  const n = (map.get(id) ?? 0) + by
  if (n > 0) map.set(id, n)
  else map.delete(id)
}

/** The refusal's message, naming the bound and its setting. */
export const refusalMessage = (name: StreamLimitName, limits: StreamLimitValues, kind: StreamKind = "change"): string => {
  const streams = kind === "change" ? "open streams" : "open event streams"
  switch (name) {
    case "perHolder":
      return kind === "change"
        ? `This API key already has ${limits.perKey} ${streams} (${STREAM_LIMIT_SETTINGS.perKey}); close one or retry later.`
        : `This API key or person already has ${limits.eventsPerCaller} ${streams} (${STREAM_LIMIT_SETTINGS.eventsPerCaller}); close one (a dashboard tab) or retry later.`
    case "perAddress":
      return `This client address already has ${limits.perAddress} ${streams} (${STREAM_LIMIT_SETTINGS.perAddress}); close one or retry later.`
    case "total":
      return `The server already has ${limits.total} ${streams} (${STREAM_LIMIT_SETTINGS.total}); retry later.`
  }
}
