import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
export interface IdGeneratorShape {
  /** A new opaque, URL-safe, globally unique identifier. */
  readonly next: Effect.Effect<string>
}

/** Where new identifiers come from; injected so tests can make them predictable. */
export class IdGenerator extends Context.Tag("@flagport/ports/IdGenerator")<IdGenerator, IdGeneratorShape>() {}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/** A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits, so ids sort roughly by time. */
export const uuidv7 = (epochMillis: number): string => {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  let ms = Math.max(0, Math.floor(epochMillis))
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256
    ms = Math.floor(ms / 256)
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const h = hex(bytes)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** Production ids: UUIDv7 stamped with Effect's Clock. */
export const layer: Layer.Layer<IdGenerator> = Layer.succeed(IdGenerator, {
  next: Effect.map(Clock.currentTimeMillis, uuidv7)
})

/** Test ids: `${prefix}-000001`, `${prefix}-000002`, ... one counter per layer instance. */
export const layerDeterministic = (prefix = "id"): Layer.Layer<IdGenerator> =>
  Layer.sync(IdGenerator, () => {
    let n = 0
    return { next: Effect.sync(() => `${prefix}-${String(++n).padStart(6, "0")}`) }
  })
