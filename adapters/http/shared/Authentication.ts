/**
 * Authentication for every route, fast or HttpApi: the raw Authorization header decided by
 * `Policy` (scheme, token shape, key lookup through the key cache), and the one mapping of any
 * failure to the error envelope (storage failures and defects are logged, answered 500).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ApiKey, Principal } from "../../../src/domain/auth/ApiKey.js"
import * as Policy from "../../../src/domain/auth/Policy.js"
import { ChangeFeed } from "../../../src/ports/ChangeFeed.js"
import { ApiKeys } from "../../../src/services/ApiKeys.js"
import { BodyTooLarge } from "./Body.js"
import * as Errors from "./Errors.js"
import { KeyCache } from "./KeyCache.js"
import { runtimeBridge } from "./RuntimeBridge.js"
import { andThen, type MaybeAsync, unwrap } from "./MaybeAsync.js"

export class Authenticator {
  constructor(
    private readonly keys: KeyCache,
    /** Logs the cause of a 500 (the response itself leaks nothing). */
    private readonly logInternal: (cause: unknown) => void
  ) {}

  /** Authenticates the raw Authorization header with `Policy` and the key cache (throws the 401). */
  authenticate(authorization: string | undefined): MaybeAsync<Principal> {
    return andThen(this.authenticateKey(authorization), Policy.principalOf)
  }

  /** As `authenticate`, answering the key itself (management writes record its id and name). */
  authenticateKey(authorization: string | undefined): MaybeAsync<ApiKey> {
    const token = unwrap(Policy.parseAuthorization(authorization))
    if (Policy.classifyToken(token) === undefined) throw Policy.unknownKey()
    return andThen(this.keys.lookup(token), (key) => {
      if (key === null) throw Policy.unknownKey()
      return key
    })
  }

  /** Any failure as an envelope error; unknown ones are logged and become a bare 500. */
  toApiError(error: unknown): Errors.ApiError {
    if (Errors.isApiError(error)) return error
    if (error instanceof BodyTooLarge) return Errors.payloadTooLarge()
    if (Errors.isDomainError(error)) {
      if (error._tag === "StorageError") this.logInternal(error)
      const mapped = Errors.fromDomain(error)
      // No evaluation route raises ServiceUnavailable (only insights reports do, on the HttpApi path).
      if (mapped instanceof Errors.Unavailable) {
        this.logInternal(error)
        return Errors.internalError()
      }
      return mapped
    }
    this.logInternal(error)
    return Errors.internalError()
  }
}

export class Authentication extends Context.Tag("@flagport/http/Authentication")<Authentication, Authenticator>() {}

export interface AuthenticationConfig {
  /** Revocation lag bound: how long an authenticated key is trusted without a lookup (1000 ms). */
  readonly keyTtlMs?: number
}

/**
 * The authenticator with its key cache, as its own layer: both HTTP paths (the fast routes and the
 * HttpApi middlewares) take it from here. A key revoked anywhere (this process or, on a shared
 * PostgreSQL, another) is dropped from the cache when the change feed announces it; the TTL is
 * the safety net.
 */
export const layer = (config: AuthenticationConfig = {}): Layer.Layer<Authentication, never, ApiKeys | ChangeFeed> =>
  Layer.scoped(
    Authentication,
    Effect.gen(function* () {
      const apiKeys = yield* ApiKeys
      const feed = yield* ChangeFeed
      const { run, logInternal } = yield* runtimeBridge
      const keys = new KeyCache((token) => run(Effect.map(apiKeys.authenticate(token), Option.getOrNull)), {
        ...(config.keyTtlMs === undefined ? {} : { ttlMs: config.keyTtlMs })
      })
      yield* feed.subscribe((change) => {
        if (change._tag === "ApiKeyRevoked") keys.revoked(change.keyId)
      })
      return new Authenticator(keys, logInternal)
    })
  )

/** A failure of authentication as the HttpApi side answers it: 401, or 500 when the key store fails (logged). */
export type AuthenticationFailure = Errors.Unauthorized | Errors.InternalError

/** The Effect face of `authenticateKey`, for the HttpApi middlewares. */
export const authenticateKey = (authorization: string | undefined): Effect.Effect<ApiKey, AuthenticationFailure, Authentication> =>
  Effect.flatMap(Authentication, (auth) =>
    Effect.tryPromise({
      try: async () => auth.authenticateKey(authorization),
      catch: (error): AuthenticationFailure => {
        const mapped = auth.toApiError(error)
        return mapped instanceof Errors.Unauthorized || mapped instanceof Errors.InternalError ? mapped : Errors.internalError()
      }
    })
  )
