/**
 * How many change streams may be open at once: per key, per client address, and on the whole
 * server. A stream holds a socket, a file descriptor and a little memory for as long as the client
 * likes, and a client key is public, so without bounds one key (or one address) could take every
 * descriptor the process has. Past a bound, `GET /v1/stream` answers 429 with `Retry-After`.
 *
 * Configured with FLAGPORT_STREAMS_PER_KEY, FLAGPORT_STREAMS_PER_ADDRESS and FLAGPORT_STREAMS_MAX
 * (or `LaneConfig.streamLimits` in code). A slot is taken when the stream starts and given back
 * when it ends, whichever side ends it.
 */
import * as Config from "effect/Config"
export interface StreamLimitValues {
  /** Streams one API key may hold open (every stream token of the key counts as the key). */
  readonly perKey: number
  /** Streams one client address may hold open (behind a trusted proxy: the address it reports). */
  readonly perAddress: number
  /** Streams the whole server may hold open. */
  readonly total: number
}

export const DEFAULT_STREAM_LIMITS: StreamLimitValues = { perKey: 5_000, perAddress: 500, total: 10_000 }

/** Seconds a refused client is told to wait (`Retry-After`): about how often streams come and go. */
export const RETRY_AFTER_SECONDS = 30

/** Which bound a refused stream met. */
export type StreamLimitName = keyof StreamLimitValues

const whole = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: "Expected a whole number, at least 1", validation: (n) => n >= 1 }),
    Config.withDefault(fallback)
  )

/** FLAGPORT_STREAMS_PER_KEY, FLAGPORT_STREAMS_PER_ADDRESS, FLAGPORT_STREAMS_MAX (whole numbers >= 1). */
export const streamLimitsConfig: Config.Config<StreamLimitValues> = Config.all({
  perKey: whole("FLAGPORT_STREAMS_PER_KEY", DEFAULT_STREAM_LIMITS.perKey),
  perAddress: whole("FLAGPORT_STREAMS_PER_ADDRESS", DEFAULT_STREAM_LIMITS.perAddress),
  total: whole("FLAGPORT_STREAMS_MAX", DEFAULT_STREAM_LIMITS.total)
})

export class StreamLimits {
  private readonly byKey = new Map<string, number>()
  private readonly byAddress = new Map<string, number>()
  private open = 0

  constructor(readonly limits: StreamLimitValues = DEFAULT_STREAM_LIMITS) {}

  /** The bound a new stream of `keyId` from `address` would pass, or undefined when it fits. */
  check(keyId: string, address: string | undefined): StreamLimitName | undefined {
    if (this.open >= this.limits.total) return "total"
    if ((this.byKey.get(keyId) ?? 0) >= this.limits.perKey) return "perKey"
    if (address !== undefined && (this.byAddress.get(address) ?? 0) >= this.limits.perAddress) return "perAddress"
    return undefined
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
export const refusalMessage = (name: StreamLimitName, limits: StreamLimitValues): string => {
  switch (name) {
    case "perKey":
      return `This API key already has ${limits.perKey} open streams (FLAGPORT_STREAMS_PER_KEY); close one or retry later.`
    case "perAddress":
      return `This client address already has ${limits.perAddress} open streams (FLAGPORT_STREAMS_PER_ADDRESS); close one or retry later.`
    case "total":
      return `The server already has ${limits.total} open streams (FLAGPORT_STREAMS_MAX); retry later.`
  }
}
