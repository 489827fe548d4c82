/**
 * A small cache in front of `ApiKeys.authenticate`, so a steady stream of requests with the same
 * key touches the database at most once per `ttlMs` per key.
 *
 * Revocation: `revoked(keyId)`, called when the change feed announces a revoked key (from this
 * process or, on PostgreSQL, another one), drops the key at once; a lookup in flight at that
 * moment answers its own request but is not kept. The TTL is the safety net for an announcement
 * that never arrives: a revoked key keeps working for at most `ttlMs` (1 s by default) in a
 * process that has seen it recently. Once an entry is older than `ttlMs`, the next request waits
 * for a fresh lookup (it is not served from the stale entry), so the bound is strict.
 * Unknown tokens are cached too (negative entries), so a flood of bad keys does not become a
 * flood of queries. They are bounded on their own (`maxUnknown`, oldest dropped first), apart
 * from real keys (`maxEntries`, oldest dropped first), so a flood of made-up tokens can never push
 * the keys of real clients out of the cache. A token longer than
 * `MAX_TOKEN_LENGTH` cannot be a key (ours are 47 characters): it is unknown at once, with no
 * lookup and no entry, so an entry costs at most a few hundred bytes whatever a client sends.
 */
import type { ApiKey } from "../../../src/domain/auth/ApiKey.js"

export interface KeyCacheOptions {
  readonly ttlMs?: number
  /** Tokens held in all (real keys and unknown tokens); default 10,000. */
  readonly maxEntries?: number
  /** Unknown tokens held (a subset of the above); default 1,000. */
  readonly maxUnknown?: number
  readonly now?: () => number
}

interface Entry {
  key: ApiKey | null
  expiresAt: number
  pending: Promise<ApiKey | null> | undefined
}

export const DEFAULT_KEY_TTL_MS = 1_000

/** The longest token looked up; keys are `srv_` / `cli_` plus 43 characters. */
export const MAX_TOKEN_LENGTH = 256

export class KeyCache {
  /** Every token, in insertion order (a Map iterates oldest first). */
  private readonly entries = new Map<string, Entry>()
  /** The tokens not known to be keys: their last lookup found none, or it is still in flight. Oldest first. */
  private readonly unknown = new Set<string>()
  private readonly ttlMs: number
  private readonly maxEntries: number
  private readonly maxUnknown: number
  private readonly now: () => number
  /** Counts `revoked` calls, so a lookup that overlapped one knows not to keep its answer. */
  private revocations = 0

  constructor(
    private readonly load: (token: string) => Promise<ApiKey | null>,
    options: KeyCacheOptions = {}
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_KEY_TTL_MS
    this.maxEntries = options.maxEntries ?? 10_000
    this.maxUnknown = Math.min(options.maxUnknown ?? 1_000, this.maxEntries)
    this.now = options.now ?? Date.now
  }

  /** How many tokens are held (for tests and metrics). */
  get size(): number {
    return this.entries.size
  }

  /** How many of them are unknown or not yet verified. */
  get unknownSize(): number {
    return this.unknown.size
  }

  /** The key for `token` (null when unknown or revoked); synchronous while the entry is fresh. */
  lookup(token: string): ApiKey | null | Promise<ApiKey | null> {
    if (token.length > MAX_TOKEN_LENGTH) return null
    const entry = this.entries.get(token)
    if (entry !== undefined && entry.expiresAt > this.now()) return entry.key
    if (entry?.pending !== undefined) return entry.pending
    return this.refresh(token, entry)
  }

  /**
   * The key `keyId` was revoked: every token that found it is forgotten (the next request looks
   * it up again), and no lookup already in flight keeps what it finds. A scan of the entries:
   * revocations are rare, and the cache is bounded.
   */
  revoked(keyId: string): void {
    this.revocations++
    for (const [token, entry] of this.entries) if (entry.key?.id === keyId) this.forget(token)
  }

  private forget(token: string): void {
    this.entries.delete(token)
    this.unknown.delete(token)
  }

  /** Drops the oldest token of `tokens` (a Map's keys or a Set, both oldest first). */
  private dropOldest(tokens: Iterable<string>): void {
    for (const token of tokens) {
      this.forget(token)
      return
    }
  }

  private refresh(token: string, previous: Entry | undefined): Promise<ApiKey | null> {
    if (previous === undefined) {
      // A new token is unverified until its lookup finds a key: it counts against `maxUnknown`
      // while the lookup is in flight, so a burst of concurrent made-up tokens evicts only
      // unverified tokens, never a key already known to be real.
      if (this.unknown.size >= this.maxUnknown) this.dropOldest(this.unknown)
      if (this.entries.size >= this.maxEntries) this.dropOldest(this.unknown.size > 0 ? this.unknown : this.entries.keys())
      this.unknown.add(token)
    }
    const entry: Entry = previous ?? { key: null, expiresAt: 0, pending: undefined }
    const startedAt = this.now()
    const revocations = this.revocations
    const pending = this.load(token).then(
      (key) => {
        entry.key = key
        // A key revoked while it was being read may have been read before the revocation: answer
        // this request with it, but look it up again next time.
        entry.expiresAt = key !== null && revocations !== this.revocations ? startedAt : startedAt + this.ttlMs
        entry.pending = undefined
        if (this.entries.get(token) === entry) {
          if (key !== null) this.unknown.delete(token)
          else if (!this.unknown.has(token)) {
            // A real key that was revoked: now an unknown token, bounded like the others.
            if (this.unknown.size >= this.maxUnknown) this.dropOldest(this.unknown)
            this.unknown.add(token)
          }
        }
        return key
      },
      (error: unknown) => {
        entry.pending = undefined
        throw error
      }
    )
    entry.pending = pending
    this.entries.set(token, entry)
    return pending
  }
}
