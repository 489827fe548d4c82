/**
 * The segments' key lists of the configuration the client serves. `/v1/config` names each list
 * (its version and salt), never its keys; the client downloads each list it does not hold at that
 * version apart, from `/v1/config/segments/{segment}/{list}`, as salted 64-bit hashes
 * (KeyListWire.ts), and evaluates with the same `KeySet` the server builds from the keys, so the
 * one evaluator answers alike on both sides. Holding version n of a list under the same salt, it
 * asks for the change since n: a one-key change is a body of a few dozen bytes, applied to a copy
 * of the table (the configuration being served keeps its own) in milliseconds.
 *
 * A million keys take a 16 MB table (plus, while a whole list is read, its 8 MB body); lists the
 * configuration no longer names are let go.
 */
import { decodeKeyList, type KeyListSource, KeySet } from "./Core.js"
import { authorization, deadline, describeError, type Endpoint, endpointUrl, errorMessage } from "./Endpoint.js"
import type { ConfigSnapshot } from "./Core.js"
import type { Timers } from "./Timers.js"

type ListName = "included" | "excluded"

interface Held {
  readonly salt: string
  readonly version: number
  readonly set: KeySet
}

/** A list a configuration names. */
interface Named {
  readonly segmentKey: string
  readonly list: ListName
  readonly version: number
  readonly salt: string | undefined
}

/** What `prepare` gives: the lists to compile with, and those not loaded (each with why). */
export interface PreparedLists {
  readonly source: KeyListSource
  readonly missing: ReadonlyArray<string>
}

const idOf = (segmentKey: string, list: ListName) => `${segmentKey}/${list}`

const namedIn = (snapshot: ConfigSnapshot): ReadonlyArray<Named> => {
  const out: Array<Named> = []
  for (const segment of snapshot.segments ?? []) {
    for (const list of ["included", "excluded"] as const) {
      const named = segment[list]
      if (named !== undefined) out.push({ segmentKey: segment.key, list, version: named.version, salt: named.salt })
    }
  }
  return out
}

/** Whether what is held serves what the configuration names (a newer version of the same list does too). */
const serves = (held: Held | undefined, named: Named): held is Held =>
  held !== undefined && held.salt === named.salt && held.version >= named.version

export class KeyLists {
  private held = new Map<string, Held>()
  /** Each list's download in flight, so concurrent refreshes share it. */
  private readonly loading = new Map<string, Promise<string | undefined>>()

  constructor(
    private readonly endpoint: Endpoint,
    private readonly timers: Timers,
    private readonly signal: AbortSignal
  ) {}

  /** Whether the configuration names lists (else `prepare` has nothing to do). */
  static names(snapshot: ConfigSnapshot): boolean {
    return namedIn(snapshot).length > 0
  }

  /**
   * Loads what `snapshot` names and is not held (all at once), then answers the source of those
   * held. Lists the snapshot no longer names are let go.
   */
  async prepare(snapshot: ConfigSnapshot): Promise<PreparedLists> {
    const named = namedIn(snapshot)
    const problems = await Promise.all(named.map((n) => (serves(this.held.get(idOf(n.segmentKey, n.list)), n) ? undefined : this.load(n))))
    const sets = new Map<string, KeySet>()
    const missing: Array<string> = []
    named.forEach((n, i) => {
      const held = this.held.get(idOf(n.segmentKey, n.list))
      if (serves(held, n)) sets.set(idOf(n.segmentKey, n.list), held.set)
      else missing.push(`the ${n.list} keys of segment ${JSON.stringify(n.segmentKey)}: ${problems[i] ?? `version ${n.version} not served yet`}`)
    })
    const kept = new Map<string, Held>()
    for (const n of named) {
      const held = this.held.get(idOf(n.segmentKey, n.list))
      if (held !== undefined) kept.set(idOf(n.segmentKey, n.list), held)
    }
    this.held = kept
    return { source: (segmentKey, list) => sets.get(idOf(segmentKey, list)), missing }
  }

  /** One list's download (shared while in flight); answers why it failed, or undefined. */
  private load(named: Named): Promise<string | undefined> {
    const id = idOf(named.segmentKey, named.list)
    let running = this.loading.get(id)
    if (running === undefined) {
      running = this.fetchList(named).finally(() => this.loading.delete(id))
      this.loading.set(id, running)
    }
    return running
  }

  private async fetchList(named: Named): Promise<string | undefined> {
    if (named.salt === undefined) return "the configuration does not say how its keys are hashed (no salt)"
    const id = idOf(named.segmentKey, named.list)
    const held = this.held.get(id)
    const since = held !== undefined && held.salt === named.salt ? held.version : undefined
    const url = new URL(endpointUrl(this.endpoint, `/v1/config/segments/${encodeURIComponent(named.segmentKey)}/${named.list}`))
    if (since !== undefined) url.searchParams.set("since", String(since))
    const request = deadline(this.timers, this.signal, this.endpoint.requestTimeoutMs)
    let bytes: Uint8Array
    try {
      const response = await this.endpoint.fetch(url.toString(), { headers: { authorization: authorization(this.endpoint) }, signal: request.signal })
      if (response.status !== 200) return await errorMessage(response)
      bytes = new Uint8Array(await response.arrayBuffer())
    } catch (error) {
      if (request.signal.aborted && !this.signal.aborted) return `no answer within ${this.endpoint.requestTimeoutMs} ms`
      return describeError(error)
    } finally {
      request.done()
    }
    const body = decodeKeyList(bytes)
    if (typeof body === "string") return body
    if (body.salt !== named.salt) return "the server sent another list than the configuration names (the segment was made again): retried with the next configuration"
    let set: KeySet
    if (body.kind === "full") set = KeySet.fromHashes(body.salt, body.hashes)
    else {
      // A change applies only to the version it was made from, as held now.
      const now = this.held.get(id)
      if (now === undefined || now.salt !== body.salt || now.version !== body.since) return "the server sent a change from a version not held"
      set = body.since === body.version ? now.set : now.set.withChanges(body.added, body.removed)
    }
    const latest = this.held.get(id)
    if (latest === undefined || latest.salt !== body.salt || latest.version <= body.version) this.held.set(id, { salt: body.salt, version: body.version, set })
    return undefined
  }
}
