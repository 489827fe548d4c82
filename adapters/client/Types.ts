/**
 * The public vocabulary of `flagport/client`: what an application passes in and gets back.
 * Types only, so every file of the client (and the OpenFeature provider) can share them.
 */
import type { Reason } from "./Core.js"
import type { FlagportServerError } from "./Refusal.js"

/** A JSON value, as a `json` flag serves it. */
export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** The four flag types of Flagport. */
export type FlagType = "boolean" | "string" | "number" | "json"

/**
 * A project's flags as `flagport codegen` declares them: each key with its type. `Client<F>`
 * then accepts only these keys, each only in the getter of its type.
 */
export type FlagTypes<F> = { readonly [K in keyof F]: FlagType }

/** Without generated types: any string is a key. */
export type UntypedFlags = { readonly [key: string]: FlagType }

/** The keys of `F` whose type is `T` (any string for `UntypedFlags`). */
export type KeyOf<F, T extends FlagType = FlagType> = string extends keyof F
  ? string
  : { [K in keyof F]: F[K] extends T ? K : never }[keyof F] & string

/**
 * The key parameter of the getter of type `T` for the key `K`: `K` itself when `F` declares it a
 * `T` flag (any key for `UntypedFlags`). For a flag of another type it is a string branded with the
 * sentence to read, which no key is, so the compiler's error says what is wrong (`... not assignable
 * to parameter of type 'string & { readonly "type error": "flag \"banner-text\" is a string flag,
 * not a boolean flag: read it with .string()" }'`) instead of `never`, or a union of the other keys,
 * which left the reader to guess. (A string underneath, so the implementation's `string` fits.)
 */
export type KeyFor<F, K, T extends FlagType> = string extends keyof F
  ? K
  : K extends keyof F
    ? F[K] extends T
      ? K
      : string & { readonly "type error": `flag "${K & string}" is a ${F[K] & string} flag, not a ${T} flag: read it with .${F[K] & string}()` }
    : K

/**
 * The subject of an evaluation. `key` identifies it (rollouts bucket by it); without one, a
 * condition on `key` or a rollout by `key` does not match. Attribute values may be anything JSON
 * can carry; others are converted as `JSON.stringify` would (a `Date` becomes its ISO 8601 string).
 */
export interface FlagContext {
  readonly key?: string | undefined
  readonly attributes?: { readonly [name: string]: unknown } | undefined
}

/**
 * Why an evaluation returned the caller's fallback instead of a flag's value:
 * - `PROVIDER_NOT_READY`: no configuration yet (neither from the server nor a bootstrap), or the
 *   flag uses a segment whose key list has not loaded yet (`reason.error` starts with
 *   `SEGMENT_LIST_NOT_LOADED`);
 * - `FLAG_NOT_FOUND`: the configuration has no such flag;
 * - `TYPE_MISMATCH`: the flag is of another type than the one asked for;
 * - `GENERAL`: the flag's definition cannot be evaluated (Flagport's `ERROR` reason).
 */
export type ErrorCode = "PROVIDER_NOT_READY" | "FLAG_NOT_FOUND" | "TYPE_MISMATCH" | "GENERAL"

/** One evaluation with its explanation. */
export interface Detail<T> {
  readonly flagKey: string
  readonly value: T
  /** The served variation's key; null when the fallback was returned. */
  readonly variationKey: string | null
  /**
   * Flagport's reason: `OFF`, `FALLTHROUGH`, `RULE_MATCH` (with `ruleId`, `ruleIndex`),
   * `PREREQUISITE_FAILED` (with `prerequisiteKey`: the off variation is served) or `ERROR` (with `error`).
   */
  readonly reason: Reason
  /** Set exactly when `reason.kind` is `ERROR`. */
  readonly errorCode?: ErrorCode
  /** The flag's version, when the server sends one. */
  readonly version?: number
  /** True when the served rule is a percentage rollout (OpenFeature's `SPLIT`). */
  readonly split?: boolean
  /** True when the flag is enabled and has no rules (OpenFeature's `STATIC` for a fallthrough). */
  readonly static?: boolean
}

/**
 * One evaluation as `onEvaluation` sees it (an exposure: this context was served this variation):
 * the `Detail` the caller got, with the context's key. `variationKey` is null and `errorCode` set
 * when the caller's fallback was served.
 */
export interface EvaluationEvent<T = unknown> extends Detail<T> {
  /** The evaluated context's `key` (undefined for a context without one). */
  readonly contextKey: string | undefined
}

/**
 * What became of the items of one kind (exposures, or metric events) the client was given to send:
 * how many wait (queued, or in a batch to resend), how many the server acknowledged, and how many
 * were dropped, by reason.
 */
export interface DeliveryCounts {
  readonly pending: number
  readonly sent: number
  readonly dropped: {
    /** The buffer was full (`maxQueuedItems`): the server was slower than the items, or away. */
    readonly full: number
    /** The server refused their batch (a 4xx other than 408 and 429; reported once by the `error` event). */
    readonly refused: number
    /** Not sendable: an empty or over-long unit or event name, a value that is not finite or above 10^12 in size. */
    readonly invalid: number
    /** Older than the server accepts (24 hours) when their turn came. */
    readonly expired: number
    /** Given after `close()`. */
    readonly closed: number
  }
}

/** Where the client stands; `stale` means the last attempt to reach the server failed. */
export type ClientStatus = "starting" | "ready" | "stale" | "closed"

/** The events of `client.on(...)`. */
export interface ClientEvents {
  /** The first configuration was installed (from the server or the bootstrap). */
  readonly ready: () => void
  /** A new configuration changed these flags (added, removed or modified). */
  readonly change: (keys: ReadonlyArray<string>) => void
  /** The server could not be reached (or the stream was lost and could not be replaced); serving the last configuration. */
  readonly stale: (message: string) => void
  /** The server is reachable again after `stale`. */
  readonly recovered: () => void
  /**
   * Something the operator should know: a refused configuration, the server's refusal of the key,
   * project or environment (then `refusal` carries its status, code and message). Evaluation goes on.
   */
  readonly error: (message: string, refusal?: FlagportServerError) => void
}

export type ClientEventName = keyof ClientEvents
