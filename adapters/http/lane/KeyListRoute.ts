/**
 * `GET /v1/config/segments/{segmentKey}/{list}`: a segment's key list for an SDK that evaluates in
 * process, never its keys, only their salted hashes (src/domain/evaluation/KeyListWire.ts), whole
 * or, for a caller holding an older version (`since`), as the change since it. Client and server
 * keys alike, under `/v1/config`'s rules (a client key is refused where the environment serves
 * client keys evaluations only), since the list is part of that configuration.
 *
 * The list answered is the one the configuration this process serves names (its version and
 * salt), so a caller that read `/v1/config` here gets the version that configuration named. The
 * whole list's bytes are encoded once per list version and shared by every caller.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { Principal } from "../../../src/domain/auth/ApiKey.js"
import * as Policy from "../../../src/domain/auth/Policy.js"
import type { KeyListName } from "../../../src/domain/evaluation/CompileSegments.js"
import { encodeKeyList } from "../../../src/domain/evaluation/KeyListWire.js"
import type { KeySet } from "../../../src/domain/evaluation/KeySet.js"
import * as Errors from "../shared/Errors.js"
import type { LaneResponse } from "../shared/EvaluationLaneService.js"
import { KEY_LIST_CONTENT_TYPE, KeyListQuery } from "../shared/EvaluationRequests.js"
import { andThen, type MaybeAsync, unwrap } from "../shared/MaybeAsync.js"
import { fromParseError } from "../shared/Problems.js"
import type { CompiledEntry } from "./CompiledEntry.js"
import * as FastDecode from "./FastDecode.js"

const decodeQuery = Schema.decodeUnknownEither(KeyListQuery)

export interface KeyListRouteOptions {
  /** The compiled snapshot this process serves for an allowed scope (404 for an unknown project or environment). */
  readonly entry: (scope: Policy.EvaluationScope) => MaybeAsync<CompiledEntry>
  /** The change from `since` to `to` as hashes, or undefined when the whole list must be sent (Snapshots.keyListChange). */
  readonly change: (
    projectId: string,
    segmentKey: string,
    list: KeyListName,
    salt: string,
    since: number,
    to: number
  ) => Promise<{ readonly added: Uint32Array; readonly removed: Uint32Array } | undefined>
}

const binary = (body: Uint8Array): LaneResponse => ({
  status: 200,
  headers: { "content-type": KEY_LIST_CONTENT_TYPE, "cache-control": "no-store" },
  body
})

export class KeyListRoute {
  /** Each list version's whole body, encoded once (a list version's set is never changed). */
  private readonly whole = new WeakMap<KeySet, Uint8Array>()

  constructor(private readonly options: KeyListRouteOptions) {}

  /** The route's query, decoded (its 400s as every evaluation route's). */
  static query(rawQuery: string): KeyListQuery {
    const query = decodeQuery(FastDecode.queryRecord(rawQuery))
    if (Either.isLeft(query)) throw fromParseError(query.left)
    return query.right
  }

  answer(principal: Principal, segmentKey: string, list: KeyListName, query: KeyListQuery): MaybeAsync<LaneResponse> {
    const scope = unwrap(Policy.authorizeEvaluation(principal, query.projectId, query.environment))
    return andThen(this.options.entry(scope), (entry) => {
      unwrap(Policy.authorizeConfigRead(principal, entry.clientConfig))
      const named = entry.lists.get(`${segmentKey}/${list}`)
      const set = entry.keyLists(segmentKey, list)
      if (named === undefined || set === undefined) throw Errors.notFound(`Segment '${segmentKey}' has no ${list} key list`)
      const salt = named.salt ?? set.salt
      const since = query.since
      if (since === undefined || since > named.version) return binary(this.wholeOf(set, named.version))
      if (since === named.version) {
        return binary(encodeKeyList({ kind: "delta", salt, version: since, since, added: new Uint32Array(0), removed: new Uint32Array(0) }))
      }
      return this.options.change(scope.projectId, segmentKey, list, salt, since, named.version).then((change) =>
        binary(
          change === undefined
            ? this.wholeOf(set, named.version)
            : encodeKeyList({ kind: "delta", salt, version: named.version, since, added: change.added, removed: change.removed })
        ))
    })
  }

  private wholeOf(set: KeySet, version: number): Uint8Array {
    let bytes = this.whole.get(set)
    if (bytes === undefined) {
      bytes = encodeKeyList({ kind: "full", salt: set.salt, version, hashes: set.hashes() })
      this.whole.set(set, bytes)
    }
    return bytes
  }
}
