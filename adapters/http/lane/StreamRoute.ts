/**
 * `GET /v1/stream`: opens a change stream (StreamHub.ts) for one environment.
 *
 * Two ways in, one set of rules:
 * - `Authorization: Bearer <key>` with the query of `GET /v1/config` (`environment`, `projectId`
 *   for a global server key; a bound key supplies its environment), checked by the same
 *   `Authentication` and `Policy`;
 * - `?token=<stream token>` (src/services/auth/StreamTokens.ts), for clients that cannot send headers
 *   (a browser's `EventSource`): the token names the project and environment, and the key it was
 *   issued for must still be live (looked up by id through a key cache of its own, which the
 *   change feed empties on a revocation like the other). The key's rules apply as with a header.
 *   An invalid or expired token is a 401; a query naming another project or environment than the
 *   token is a 403.
 *
 * The answer's first event carries the environment's current ETag (from the snapshot cache);
 * then the hub sends one per change. Open streams are bounded per key, per client address and in
 * all (StreamLimits.ts): past a bound the answer is 429 with `Retry-After`, before any lookup.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { Principal } from "../../../src/domain/auth/ApiKey.js"
import * as Policy from "../../../src/domain/auth/Policy.js"
import type { StreamTokenClaims } from "../../../src/domain/auth/StreamToken.js"
import { Forbidden } from "../../../src/domain/Errors.js"
import { invalidStreamToken } from "../../../src/domain/auth/StreamToken.js"
import type { Authenticator } from "../shared/Authentication.js"
import type { LaneResponse } from "../shared/EvaluationLaneService.js"
import { ConfigQuery } from "../shared/EvaluationRequests.js"
import { EVENT_STREAM_HEADERS } from "../shared/EventStream.js"
import type { KeyCache } from "../shared/KeyCache.js"
import { fromParseError } from "../shared/Problems.js"
import { andThen, type MaybeAsync, unwrap } from "../shared/MaybeAsync.js"
import * as FastDecode from "./FastDecode.js"
import type { LaneRequest } from "../shared/EvaluationLaneService.js"
import type { SnapshotCache } from "./SnapshotCache.js"
import type { StreamHub } from "./StreamHub.js"
import { RETRY_AFTER_SECONDS, type StreamLimits } from "../shared/StreamLimits.js"
import { clientAddress, type TrustProxy } from "../shared/TrustProxy.js"
import * as Errors from "../shared/Errors.js"

export interface StreamRouteOptions {
  readonly auth: Authenticator
  /** The claims of a valid, unexpired token (rejects with Unauthenticated otherwise). */
  readonly verifyToken: (token: string) => Promise<StreamTokenClaims>
  /** Live keys by id (a revoked or unknown key is null). */
  readonly keysById: KeyCache
  readonly snapshots: SnapshotCache
  readonly hub: StreamHub
  readonly limits: StreamLimits
  /** Which proxies are believed about the client's address (FLAGPORT_TRUST_PROXY). */
  readonly trustProxy: TrustProxy
}

const decodeQuery = Schema.decodeUnknownEither(ConfigQuery)

/** The query of `GET /v1/config` (the fast decoder, then the schema for its errors). */
const decode = (record: Record<string, FastDecode.QueryValue>): ConfigQuery => {
  const fast = FastDecode.configQuery(record)
  if (fast !== undefined) return fast
  const query = decodeQuery(record)
  if (Either.isLeft(query)) throw fromParseError(query.left)
  return query.right
}

const invalidToken = invalidStreamToken

interface Opened {
  readonly principal: Principal
  readonly scope: Policy.EvaluationScope
}

export class StreamRoute {
  constructor(private readonly options: StreamRouteOptions) {}

  /** The stream's answer (failures are thrown, as on the other lane routes); credentials first, then the query. */
  answer(request: LaneRequest): MaybeAsync<LaneResponse> {
    const { token, ...rest } = FastDecode.queryRecord(request.query)
    const authorization = request.header("authorization")
    const opened = authorization === undefined && token !== undefined
      ? this.byToken(token, rest)
      : andThen(this.options.auth.authenticate(authorization), (principal): Opened => {
        const query = decode(rest)
        return { principal, scope: unwrap(Policy.authorizeEvaluation(principal, query.projectId, query.environment)) }
      })
    return andThen(opened, ({ principal, scope }) => {
      const address = clientAddress(this.options.trustProxy, request.remoteAddress, request.header("x-forwarded-for"))
      const over = this.options.limits.check(principal.keyId, address)
      if (over !== undefined) return tooMany(this.options.limits.refusal(over))
      const slot = this.options.limits.hold(principal.keyId, address)
      try {
        const entry = this.options.snapshots.get(scope.projectId, scope.environment)
        if (entry instanceof Promise) entry.catch(slot.release)
        return andThen(entry, (entry): LaneResponse => ({
          status: 200,
          headers: EVENT_STREAM_HEADERS,
          body: undefined,
          stream: slot.around(this.options.hub.open(principal.keyId, scope.projectId, scope.environment, entry.etag, request.header("last-event-id")))
        }))
      } catch (error) {
        slot.release()
        throw error
      }
    })
  }

  private byToken(token: FastDecode.QueryValue, rest: Record<string, FastDecode.QueryValue>): Promise<Opened> {
    if (typeof token !== "string") return Promise.reject(invalidToken())
    return this.options.verifyToken(token).then((claims) =>
      andThen(this.options.keysById.lookup(claims.keyId), (key): Opened => {
        if (key === null) throw invalidToken()
        const query = decode(rest)
        if (query.projectId !== undefined && query.projectId !== claims.projectId) throw new Forbidden({ message: Policy.Messages.projectMismatch })
        if (query.environment !== undefined && query.environment !== claims.environment) {
          throw new Forbidden({ message: Policy.Messages.environmentMismatch })
        }
        const principal = Policy.principalOf(key)
        return { principal, scope: unwrap(Policy.authorizeEvaluation(principal, claims.projectId, claims.environment)) }
      })
    )
  }
}

/** 429 in the envelope, with `Retry-After`. */
const tooMany = (message: string): LaneResponse => ({
  status: 429,
  headers: { "content-type": "application/json", "retry-after": String(RETRY_AFTER_SECONDS) },
  body: JSON.stringify({ error: Errors.tooManyRequests(message).error })
})
