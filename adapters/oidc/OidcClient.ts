/**
 * The relying party: OpenID Connect's authorization code flow with PKCE, `state` and `nonce`,
 * through `openid-client` (a certified implementation: discovery, the token request, the ID
 * token's signature, issuer, audience, expiry and nonce are its checks, not ours).
 *
 * Discovery is lazy and not remembered when it fails: a provider that is down when Flagport
 * starts does not stop the start, and the next sign-in tries again (each attempt retried twice
 * within the request). Once it succeeds the provider's metadata is kept for the process's life;
 * its signing keys are fetched, cached and refreshed by the library as keys rotate.
 */
import * as client from "openid-client"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import type { OidcSettings } from "./OidcSettings.js"

/** What a sign-in must carry from its start to its callback (kept sealed in a cookie, signin/Transaction.ts). */
export interface Transaction {
  readonly state: string
  readonly nonce: string
  readonly codeVerifier: string
  /** Where the person goes once signed in: a path under Flagport, already checked (signin/ReturnTo.ts). */
  readonly returnTo: string
}

/** Who the provider says signed in: only what Flagport uses. */
export interface Claims {
  /** The ID token's `iss` (openid-client has checked it is the provider's), with `subject` the person's identity. */
  readonly issuer: string
  readonly subject: string
  readonly email: string | undefined
  /** The provider vouches for the address (`email_verified: true`, or Entra ID's `xms_edov: true`); anything else is false. */
  readonly emailVerified: boolean
  readonly name: string | undefined
}

/** The provider could not be reached (discovery, the token request or its keys). */
export class OidcUnavailable extends Data.TaggedError("OidcUnavailable")<{ readonly cause: unknown }> {}

/**
 * The provider answered, but not with a sign-in we accept: it reported an error (the person
 * declined, for instance), or the response failed a check (state, nonce, signature, audience...).
 */
export class OidcRefused extends Data.TaggedError("OidcRefused")<{
  /** The provider answered with an error itself (`access_denied` when the person declined...), rather than failing a check. */
  readonly byProvider: boolean
  readonly cause: unknown
}> {}

export interface OidcClient {
  readonly settings: OidcSettings
  /** The provider's authorization URL to send the browser to, and the transaction to keep until it returns. */
  readonly begin: (returnTo: string) => Effect.Effect<{ readonly url: URL; readonly transaction: Transaction }, OidcUnavailable>
  /** The callback's query string checked against `transaction`, the code exchanged, the claims read. */
  readonly finish: (callbackQuery: string, transaction: Transaction) => Effect.Effect<Claims, OidcUnavailable | OidcRefused>
}

export interface OidcClientOptions {
  /** Seconds for each request to the provider (default 10). */
  readonly timeoutSeconds?: number
}

/** `true`, or the string "true" some providers send. */
const isTrue = (value: unknown): boolean => value === true || value === "true"

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined)

/** The person's display name: `name`, else given and family names, else none (the caller falls back to the email). */
const nameOf = (claims: Readonly<Record<string, unknown>>): string | undefined =>
  text(claims.name) ?? text([text(claims.given_name), text(claims.family_name)].filter((p) => p !== undefined).join(" "))

/** Not reaching the provider: a timeout, an abort, or a failure without a protocol code (a network error). */
const UNREACHABLE = new Set(["OAUTH_TIMEOUT", "OAUTH_ABORT"])

/**
 * Whether the provider vouches for the address: `email_verified: true`; or, from Microsoft Entra
 * ID, which sends no `email_verified`, its optional claim `xms_edov: true` (the address's domain
 * is verified by the tenant's owner; docs/guide/people.md says how to turn it on).
 */
const emailVerified = (claims: Readonly<Record<string, unknown>>): boolean =>
  claims.email_verified === undefined ? isTrue(claims.xms_edov) : isTrue(claims.email_verified)

/**
 * What Flagport takes from a sign-in: the subject from the ID token; the email and whether it is
 * verified from `source`, the ID token or, when that carries no email, the userinfo response.
 */
export const claimsFrom = (
  idToken: { readonly iss: string; readonly sub: string } & Readonly<Record<string, unknown>>,
  source: Readonly<Record<string, unknown>>
): Claims => ({
  issuer: idToken.iss,
  subject: idToken.sub,
  email: text(source.email),
  emailVerified: emailVerified(source),
  name: nameOf(source) ?? nameOf(idToken)
})

/** Errors of the provider's answer (an error response, a failed check) as opposed to not reaching it. */
const isRefusal = (error: unknown): boolean =>
  error instanceof client.AuthorizationResponseError ||
  error instanceof client.ResponseBodyError ||
  error instanceof client.WWWAuthenticateChallengeError ||
  (error instanceof client.ClientError && error.code !== undefined && !UNREACHABLE.has(error.code))

export const make = (settings: OidcSettings, options: OidcClientOptions = {}): OidcClient => {
  const timeout = options.timeoutSeconds ?? 10
  let discovered: Promise<client.Configuration> | undefined
  const discover = () => {
    discovered ??= client.discovery(settings.issuer, settings.clientId, Redacted.value(settings.clientSecret), undefined, {
      timeout,
      // http only for an issuer on this machine (OidcSettings.parseIssuer refuses any other).
      ...(settings.insecure ? { execute: [client.allowInsecureRequests] } : {})
    })
    // A failure is not remembered: the next sign-in discovers again.
    discovered.catch(() => (discovered = undefined))
    return discovered
  }
  const configuration = Effect.tryPromise({ try: discover, catch: (cause) => new OidcUnavailable({ cause }) }).pipe(
    Effect.retry(Schedule.exponential(Duration.millis(200)).pipe(Schedule.compose(Schedule.recurs(2))))
  )

  const begin = Effect.fn("Oidc.begin")(function* (returnTo: string) {
    const config = yield* configuration
    const codeVerifier = client.randomPKCECodeVerifier()
    const codeChallenge = yield* Effect.promise(() => client.calculatePKCECodeChallenge(codeVerifier))
    const state = client.randomState()
    const nonce = client.randomNonce()
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: settings.redirectUri,
      scope: "openid email profile",
      code_challenge: codeChallenge,
      code_challenge_method: "S256",
      state,
      nonce
    })
    return { url, transaction: { state, nonce, codeVerifier, returnTo } }
  })

  const finish = Effect.fn("Oidc.finish")(function* (callbackQuery: string, transaction: Transaction) {
    const config = yield* configuration
    // The URL the provider redirected to, as registered: the request's own address may be an
    // internal one behind a proxy, and the token request must repeat the registered redirect URI.
    const current = new URL(`${settings.redirectUri}${callbackQuery === "" ? "" : `?${callbackQuery}`}`)
    const call = <A>(f: () => Promise<A>) =>
      Effect.tryPromise({
        try: f,
        catch: (cause) =>
          isRefusal(cause) ? new OidcRefused({ byProvider: cause instanceof client.AuthorizationResponseError, cause }) : new OidcUnavailable({ cause })
      })
    const tokens = yield* call(() =>
      client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true
      })
    )
    const idToken = tokens.claims()
    if (idToken === undefined) return yield* new OidcRefused({ byProvider: false, cause: new Error("the token response has no ID token") })
    // Providers that keep the ID token small (oidc-provider by default, some Okta and Entra
    // set-ups) answer email and email_verified at the userinfo endpoint only.
    const source: Readonly<Record<string, unknown>> = text(idToken.email) !== undefined
      ? idToken
      : yield* call(() => client.fetchUserInfo(config, tokens.access_token, idToken.sub))
    return claimsFrom(idToken, source)
  })

  return { settings, begin, finish }
}
