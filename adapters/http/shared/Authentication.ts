/**
 * Authentication for every route, fast or HttpApi: the raw Authorization header decided by
 * `Policy` (scheme, token shape, key lookup through the key cache), and the one mapping of any
 * failure to the error envelope (storage failures and defects are logged, answered 500).
 */
import { Context } from "effect"
import type { ApiKey, Principal } from "../../../src/domain/auth/ApiKey.js"
import * as Policy from "../../../src/domain/auth/Policy.js"
import { BodyTooLarge } from "./Body.js"
import * as Errors from "./Errors.js"
import type { KeyCache } from "./KeyCache.js"
import { andThen, type Sync, unwrap } from "./Sync.js"

export class Authenticator {
  constructor(
    private readonly keys: KeyCache,
    /** Logs the cause of a 500 (the response itself leaks nothing). */
    private readonly logInternal: (cause: unknown) => void
  ) {}

  /** Authenticates the raw Authorization header with `Policy` and the key cache (throws the 401). */
  authenticate(authorization: string | undefined): Sync<Principal> {
    return andThen(this.authenticateKey(authorization), Policy.principalOf)
  }

  /** As `authenticate`, answering the key itself (management writes record its id and name). */
  authenticateKey(authorization: string | undefined): Sync<ApiKey> {
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
