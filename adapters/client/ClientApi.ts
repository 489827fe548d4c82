/**
 * What an application holds: the SDK's public interface (Client.ts implements it).
 */
import type { EvaluationResult } from "./Core.js"
import type { FlagportServerError } from "./Refusal.js"
import type { ClientEventName, ClientEvents, ClientStatus, DeliveryCounts, Detail, FlagContext, FlagType, FlagTypes, Json, KeyFor, KeyOf, UntypedFlags } from "./Types.js"

/**
 * The SDK. `F` is the project's flags as `flagport codegen` declares them (`createClient<Flags>`):
 * then an unknown key, or a key in the getter of another type, does not compile. Without it,
 * any string is a key.
 */
export interface Client<F extends FlagTypes<F> = UntypedFlags> {
  /** A boolean flag's value, or `fallback` (no configuration yet, unknown flag, another type, a broken flag). */
  boolean<K extends KeyOf<F>>(flagKey: KeyFor<F, K, "boolean">, context: FlagContext, fallback: boolean): boolean
  string<K extends KeyOf<F>>(flagKey: KeyFor<F, K, "string">, context: FlagContext, fallback: string): string
  number<K extends KeyOf<F>>(flagKey: KeyFor<F, K, "number">, context: FlagContext, fallback: number): number
  json<T extends Json = Json, K extends KeyOf<F> = KeyOf<F>>(flagKey: KeyFor<F, K, "json">, context: FlagContext, fallback: T): T | Json
  /**
   * The value with its variation and reason. The flag type asked for is `type`, by default the
   * fallback's (`false` asks for a boolean flag, an object or null for a json flag).
   */
  detail<T>(flagKey: KeyOf<F>, context: FlagContext, fallback: T, type?: FlagType): Detail<T>
  /** Every flag for one context, as `POST /v1/evaluate` answers (empty before the first configuration). */
  all(context: FlagContext): Record<string, EvaluationResult>
  /**
   * Subscribes; returns the unsubscribe function. An `error` listener added while a problem stands
   * (reported, and the server has not answered well since) is told it once, right after `on`
   * returns (in a microtask): a refusal met during `createClient` reaches a listener added after it.
   */
  on<E extends ClientEventName>(event: E, listener: ClientEvents[E]): () => void
  off<E extends ClientEventName>(event: E, listener: ClientEvents[E]): void
  /** `starting` (no configuration yet), `ready`, `stale` (serving the last configuration, the server is unreachable) or `closed`. */
  readonly status: ClientStatus
  /** The ETag of the configuration served (undefined before the first or for a bootstrap configuration). */
  readonly etag: string | undefined
  /** The server's refusal standing now (a wrong or revoked key, an unknown environment); undefined once it answers well again. */
  readonly refusal: FlagportServerError | undefined
  /**
   * Records a metric event of `unit` (what the experiment's rollout buckets by: the context key by
   * default), with an optional value (a purchase's amount), sent to `POST /v1/track` in batches. A
   * push onto a bounded buffer: never waits, never throws; what cannot be sent is counted in `delivery`.
   */
  track(event: string, unit: string, value?: number): void
  /** What became of the exposures and metric events given to the client: waiting, sent, dropped (by reason). */
  readonly delivery: { readonly exposures: DeliveryCounts; readonly events: DeliveryCounts }
  /** Sends the exposures and metric events waiting now; resolves to true when none is left waiting. */
  flush(): Promise<boolean>
  /** Refetches now (normally not needed); resolves to true when the server answered. */
  refresh(): Promise<boolean>
  /**
   * Stops every connection and timer and sends the last evaluation counts, exposures and metric
   * events; evaluations keep answering from the last configuration.
   */
  close(): Promise<void>
}
