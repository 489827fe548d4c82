/**
 * Stream tokens (the format: src/domain/auth/StreamToken.ts): issued for a key that may read one
 * environment, verified by the stream route (`GET /v1/stream?token=`). Signed with the database's
 * stream secret, so any process on the database verifies what any other issued.
 *
 * The OFREP bulk evaluation puts a fresh token in the `eventStreams` URL it answers:
 * `StreamTokens.issue(principal, { projectId, environment })`.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ApiKey, Principal } from "../../domain/auth/ApiKey.js"
import * as Policy from "../../domain/auth/Policy.js"
import {
  constantTimeEquals,
  DEFAULT_TTL_SECONDS,
  invalidStreamToken,
  MAX_TTL_SECONDS,
  parse,
  signedPart,
  type StreamTokenClaims,
  toUrlBase64
} from "../../domain/auth/StreamToken.js"
import type { Forbidden, InvalidRequest, Unauthenticated } from "../../domain/Errors.js"
import { ApiKeyRepository } from "../../ports/ApiKeyRepository.js"
import { Crypto } from "../../ports/Crypto.js"
import type { StorageError } from "../../ports/StorageError.js"
import { StreamSecret } from "../../ports/StreamSecret.js"


export interface IssuedStreamToken {
  readonly token: string
  readonly projectId: string
  readonly environment: string
  /** Unix seconds. */
  readonly expiresAt: number
}

export interface StreamTokensShape {
  /**
   * A token for `principal` to stream one environment: the project and environment are resolved
   * and checked exactly as for `GET /v1/config` (a bound key supplies its environment; 400/403 as
   * there). `ttlSeconds` defaults to 1 h and is capped at 24 h.
   */
  readonly issue: (
    principal: Principal,
    scope: { readonly projectId?: string | undefined; readonly environment?: string | undefined; readonly ttlSeconds?: number | undefined }
  ) => Effect.Effect<IssuedStreamToken, Forbidden | InvalidRequest | StorageError>
  /**
   * The claims of a token signed with this database's secret and not expired, else
   * `Unauthenticated`. Does not look at the key: the caller checks it is still live (`liveKey`),
   * through a cache of its own when it has one.
   */
  readonly verify: (token: string) => Effect.Effect<StreamTokenClaims, Unauthenticated | StorageError>
  /** The key a token names, if it exists and is not revoked. */
  readonly liveKey: (keyId: string) => Effect.Effect<Option.Option<ApiKey>, StorageError>
}

export class StreamTokens extends Context.Tag("@flagport/services/StreamTokens")<StreamTokens, StreamTokensShape>() {}

const invalid = invalidStreamToken

export const make = Effect.gen(function* () {
  const crypto = yield* Crypto
  const secrets = yield* StreamSecret
  const keys = yield* ApiKeyRepository
  // Read once per process (it never changes); a failed read is retried by the next call.
  let known: Uint8Array | undefined
  const secret = Effect.suspend(() =>
    known === undefined ? Effect.tap(secrets.get, (bytes) => Effect.sync(() => (known = bytes))) : Effect.succeed(known))
  const sign = (signed: string, key: Uint8Array) => toUrlBase64(crypto.hmacSha256Base64(key, signed))

  const issue: StreamTokensShape["issue"] = Effect.fn("StreamTokens.issue")(function* (principal, scope) {
    const allowed = Policy.authorizeEvaluation(principal, scope.projectId, scope.environment)
    if (Either.isLeft(allowed)) return yield* allowed.left
    const ttl = Math.min(Math.max(1, Math.floor(scope.ttlSeconds ?? DEFAULT_TTL_SECONDS)), MAX_TTL_SECONDS)
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const claims: StreamTokenClaims = { ...allowed.right, keyId: principal.keyId, expiresAt: now + ttl }
    const signed = signedPart(claims)
    return { token: `${signed}.${sign(signed, yield* secret)}`, ...allowed.right, expiresAt: claims.expiresAt }
  })

  const verify: StreamTokensShape["verify"] = Effect.fn("StreamTokens.verify")(function* (token) {
    const parsed = parse(token)
    if (parsed === undefined) return yield* invalid()
    if (!constantTimeEquals(sign(parsed.signed, yield* secret), parsed.signature)) return yield* invalid()
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    if (parsed.claims.expiresAt <= now) return yield* invalid()
    return parsed.claims
  })

  const liveKey: StreamTokensShape["liveKey"] = (keyId) =>
    Effect.map(keys.get(keyId), Option.filter((key) => key.revokedAt === null))

  return StreamTokens.of({ issue, verify, liveKey })
})

export const layer = Layer.effect(StreamTokens, make)
