/**
 * Authentication for every route, lane or HttpApi: the raw Authorization header decided by
 * `Policy` (scheme, token shape, key lookup through the key cache), and the one mapping of any
 * failure to the error envelope (storage failures and defects are logged, answered 500).
 *
 * People: the same layer decides between a key and a person's session cookie for the
 * management routes (`authenticateRequest`: a request with a key is judged by the key), checks
 * the `Origin` of cookie writes (`crossSiteRefusal`), and knows the cookie's settings. The
 * evaluation, config and stream routes never look at the cookie: they stay key-only.
 */
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { Actor } from "../../../src/domain/audit/Actor.js"
import { PeopleMessages } from "../../../src/domain/auth/PeopleMessages.js"
import type { ApiKey, Principal } from "../../../src/domain/auth/ApiKey.js"
import { type Caller, personActor, personOf } from "../../../src/domain/auth/Caller.js"
import * as Policy from "../../../src/domain/auth/Policy.js"
import type { UserWithMemberships } from "../../../src/domain/people/User.js"
import { ChangeFeed } from "../../../src/ports/ChangeFeed.js"
import { ApiKeys } from "../../../src/services/auth/ApiKeys.js"
import { Sessions, type SessionsShape, type SessionUse } from "../../../src/services/people/Sessions.js"
import { cookieFor, type HeaderBag, type PeerAddress, type PeopleSettings } from "./PeopleSettings.js"
import { parsePublicUrl, publicUrlConfig } from "../../settings/PublicUrl.js"
import { TRUST_NONE, trustProxyConfig, trustProxyOf, type TrustProxySetting } from "./TrustProxy.js"
import { hasSessionCookie, sessionTokenOf } from "./SessionCookie.js"
import { BodyTooLarge } from "./Body.js"
import * as Errors from "./Errors.js"
import { KeyCache } from "./KeyCache.js"
import { runtimeBridge } from "./RuntimeBridge.js"
import { andThen, type MaybeAsync, unwrap } from "./MaybeAsync.js"

/** The session side of the authenticator: the cookie's settings and the sessions use case. */
export interface PeopleSide {
  readonly settings: PeopleSettings
  readonly sessions: Pick<SessionsShape, "authenticate">
}

/** Without sessions (a key-only authenticator, as the evaluation lane's tests build one): no cookie ever works. */
const NO_PEOPLE: PeopleSide = {
  settings: { publicUrl: undefined, prefix: "", trustProxy: TRUST_NONE },
  sessions: { authenticate: () => Effect.succeed(Option.none()) }
}

export class Authenticator {
  constructor(
    private readonly keys: KeyCache,
    /** Logs the cause of a 500 (the response itself leaks nothing). */
    private readonly logInternal: (cause: unknown) => void,
    /** Sessions of people, for the management routes (the lane routes never use them). */
    readonly people: PeopleSide = NO_PEOPLE
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
      // No evaluation route raises ServiceUnavailable (only insights reports do, on the HttpApi path),
      // nor a sign-in limit (only the sign-in route does).
      if (mapped instanceof Errors.Unavailable || mapped instanceof Errors.SignInLimited) {
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
  /** The public URL (default: FLAGPORT_PUBLIC_URL): the cookie's name and Secure, the CSRF origin, setup links. */
  readonly publicUrl?: string
  /** The mount prefix ("" for the root), for links built from a request's origin. */
  readonly prefix?: string
  /** The proxies believed about the client's address and origin (default: FLAGPORT_TRUST_PROXY, else none): TrustProxy.ts. */
  readonly trustProxy?: TrustProxySetting
}

/**
 * Behind a trusted proxy without a public URL, each request's forwarded scheme and host decide the
 * origin: an https request gets the secure cookie, but a request the proxy forwards over http (a
 * misrouted plain-http listener, a health check) gets the plain one, and setup links take the host
 * each request names. Told once at start.
 */
export const TRUSTED_PROXY_WITHOUT_PUBLIC_URL =
  "FLAGPORT_TRUST_PROXY is set but FLAGPORT_PUBLIC_URL is not: the session cookie's Secure flag, the sign-in origin check and setup links " +
  "follow each request's X-Forwarded-Proto and X-Forwarded-Host; set FLAGPORT_PUBLIC_URL to the https address people use"

/**
 * The authenticator with its key cache, as its own layer: both HTTP paths (the lane routes and the
 * HttpApi middlewares) take it from here. A key revoked anywhere (this process or, on a shared
 * PostgreSQL, another) is dropped from the cache when the change feed announces it; the TTL is
 * the safety net.
 */
export const layer = (config: AuthenticationConfig = {}): Layer.Layer<Authentication, ConfigError.ConfigError, ApiKeys | ChangeFeed | Sessions> =>
  Layer.scoped(
    Authentication,
    Effect.gen(function* () {
      const apiKeys = yield* ApiKeys
      const feed = yield* ChangeFeed
      const sessions = yield* Sessions
      // A public URL given in code is normalised as FLAGPORT_PUBLIC_URL is (the lane refuses a malformed one).
      const publicUrl = config.publicUrl === undefined
        ? Option.getOrUndefined(yield* publicUrlConfig)
        : Either.getOrElse(parsePublicUrl(config.publicUrl), () => config.publicUrl)
      const settings: PeopleSettings = {
        publicUrl,
        prefix: config.prefix ?? "",
        trustProxy: config.trustProxy === undefined ? yield* trustProxyConfig : trustProxyOf(config.trustProxy)
      }
      if (publicUrl === undefined && settings.trustProxy._tag !== "Off") yield* Effect.logWarning(TRUSTED_PROXY_WITHOUT_PUBLIC_URL)
      const { run, logInternal } = yield* runtimeBridge
      const keys = new KeyCache((token) => run(Effect.map(apiKeys.authenticate(token), Option.getOrNull)), {
        ...(config.keyTtlMs === undefined ? {} : { ttlMs: config.keyTtlMs })
      })
      yield* feed.subscribe((change) => {
        if (change._tag === "ApiKeyRevoked") keys.revoked(change.keyId)
      })
      return new Authenticator(keys, logInternal, { settings, sessions })
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

/** Who a management request is from: a key, or a person by their session cookie. */
export interface Authenticated {
  readonly caller: Caller
  readonly actor: Actor
  readonly via: "key" | "session"
}

/** The audit log's actor of a key. */
export const keyActor = (key: ApiKey): Actor => ({ type: "key", keyId: key.id, keyName: key.name })

const sessionEnded = () => Errors.unauthorized(PeopleMessages.sessionEnded)

/**
 * The person of the request's session cookie; 401 when the cookie is missing (`whenMissing`) or
 * no longer works (unknown, ended, expired, or its user disabled). Looked up on every request, so
 * a session ended on any process is refused here at once. `use` is "recheck" for an open stream
 * asking again, which is no activity of the person (the session may idle out meanwhile).
 */
export const authenticateSession = (
  headers: HeaderBag,
  peer: PeerAddress,
  whenMissing: () => Errors.Unauthorized,
  use: SessionUse = "request"
): Effect.Effect<UserWithMemberships, AuthenticationFailure, Authentication> =>
  Effect.flatMap(Authentication, (auth) => {
    const people = auth.people
    const cookie = cookieFor(people.settings, headers, peer)
    if (!hasSessionCookie(cookie, headers.cookie)) return Effect.fail(whenMissing())
    const token = sessionTokenOf(cookie, headers.cookie)
    if (token === undefined) return Effect.fail(sessionEnded())
    return people.sessions.authenticate(token, use).pipe(
      Effect.catchAll((error) => Effect.zipRight(Effect.logError("Session lookup failed", error), Effect.fail(Errors.internalError()))),
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(sessionEnded()), onSome: Effect.succeed }))
    )
  })

/**
 * The one decision between key and session for a management request: an `Authorization` header
 * means a key (judged by the key alone, cookie or not); otherwise the session cookie; otherwise
 * the 401 of a missing header.
 */
export const authenticateRequest = (
  headers: HeaderBag,
  peer: PeerAddress,
  use: SessionUse = "request"
): Effect.Effect<Authenticated, AuthenticationFailure, Authentication> =>
  Effect.flatMap(Authentication, (auth) => {
    if (headers.authorization !== undefined || !hasSessionCookie(cookieFor(auth.people.settings, headers, peer), headers.cookie)) {
      return Effect.map(authenticateKey(headers.authorization), (key): Authenticated => ({ caller: Policy.principalOf(key), actor: keyActor(key), via: "key" }))
    }
    return Effect.map(authenticateSession(headers, peer, sessionEnded, use), (me): Authenticated => {
      const person = personOf(me)
      return { caller: person, actor: personActor(person), via: "session" }
    })
  })
