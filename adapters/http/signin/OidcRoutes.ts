/**
 * Single sign-on's two browser routes (docs/guide/people.md, "Single sign-on"), plain redirects beside
 * the JSON API, on the HttpApi router so the standalone server and the mounted handlers serve them
 * alike:
 *
 * - `GET /auth/oidc/login?returnTo=/ui/...` sends the browser to the provider (authorization
 *   code with PKCE, `state`, `nonce`), the transaction sealed in a ten-minute cookie.
 * - `GET /auth/oidc/callback` checks the provider's answer against that cookie (openid-client),
 *   hands the claims to `SignIn.withSso` (which creates the person on their first sign-in, and
 *   refuses an unverified email, a domain not allowed, a disabled account), starts a session with
 *   the session cookie `POST /v1/auth/login` sets, and returns to `returnTo`.
 *
 * Anything that goes wrong lands on the dashboard's sign-in page with the reason
 * (`/ui/signin?error=<message>`) and no session.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { SIGN_IN_REFUSALS } from "../../../src/domain/people/SignInRefusal.js"
import { Sessions, type SessionsShape } from "../../../src/services/people/Sessions.js"
import { SignIn, type SignInShape } from "../../../src/services/people/SignIn.js"
import { Oidc } from "../../oidc/Oidc.js"
import type { OidcClient, OidcRefused } from "../../oidc/OidcClient.js"
import { CALLBACK_PATH, LOGIN_PATH } from "../../oidc/OidcSettings.js"
import { cookieSettings, setSessionCookie } from "../shared/SessionCookie.js"
import { returnUrl } from "./ReturnTo.js"
import * as TransactionCookie from "./TransactionCookie.js"

/** Nothing here may be cached, nor its address passed on to another site. */
const HEADERS = { "cache-control": "no-store", "referrer-policy": "no-referrer" }

/** The dashboard's sign-in page showing `message`. */
export const signInPageUrl = (publicUrl: string, message: string): string => `${publicUrl}/ui/signin?error=${encodeURIComponent(message)}`

const redirect = (location: string) => HttpServerResponse.redirect(location, { status: 302, headers: HEADERS })

const isSecure = (client: OidcClient): boolean => client.settings.publicUrl.startsWith("https:")

/** The transaction cookie's attributes: this origin only, sent back on the provider's top-level redirect (Lax). */
const cookieOptions = (client: OidcClient) => ({ path: "/", httpOnly: true, sameSite: "lax" as const, secure: isSecure(client) })

/** The refusal after the provider answered: it said no itself, or its answer failed a check. */
const refusalMessage = (error: OidcRefused): string => (error.byProvider ? SIGN_IN_REFUSALS.providerRefused : SIGN_IN_REFUSALS.signInFailed)

/** For the log: what went wrong, in a line (an Error's own fields do not show when logged as an object). */
const describe = (cause: unknown): string => {
  if (!(cause instanceof Error)) return String(cause)
  const code = (cause as { readonly code?: unknown }).code
  const inner = cause.cause instanceof Error ? `; ${cause.cause.message}` : ""
  return `${cause.name}: ${cause.message}${typeof code === "string" ? ` (${code})` : ""}${inner}`
}

/** The query string of a request's URL (path and query), without the `?`. */
const queryOf = (url: string): string => (url.includes("?") ? url.slice(url.indexOf("?") + 1) : "")

const notConfigured = HttpServerResponse.text("Single sign-on is not configured on this server.\n", { status: 404, headers: HEADERS })

const login = (client: OidcClient) => Effect.gen(function* () {
  const { publicUrl } = client.settings
  const request = yield* HttpServerRequest.HttpServerRequest
  const returnTo = new URLSearchParams(queryOf(request.url)).get("returnTo")
  const started = yield* Effect.either(client.begin(returnUrl(publicUrl, returnTo)))
  if (started._tag === "Left") {
    yield* Effect.logWarning(`Single sign-on: the provider could not be reached: ${describe(started.left.cause)}`)
    return redirect(signInPageUrl(publicUrl, SIGN_IN_REFUSALS.providerUnavailable))
  }
  const now = yield* Clock.currentTimeMillis
  const sealed = TransactionCookie.seal(TransactionCookie.sealingKey(Redacted.value(client.settings.clientSecret)), started.right.transaction, now)
  return redirect(started.right.url.href).pipe(
    HttpServerResponse.unsafeSetCookie(TransactionCookie.transactionCookieName(isSecure(client)), sealed, {
      ...cookieOptions(client),
      maxAge: `${TransactionCookie.TRANSACTION_TTL_SECONDS} seconds`
    })
  )
})

/** The callback's answer before the transaction cookie is cleared (every answer clears it: it serves once). */
const callbackAnswer = (client: OidcClient, signIn: SignInShape, sessions: SessionsShape) =>
  Effect.gen(function* () {
    const { publicUrl, allowedDomains, defaultRole } = client.settings
    const refuse = (message: string) => redirect(signInPageUrl(publicUrl, message))
    const request = yield* HttpServerRequest.HttpServerRequest
    const now = yield* Clock.currentTimeMillis
    const key = TransactionCookie.sealingKey(Redacted.value(client.settings.clientSecret))
    const transaction = TransactionCookie.open(key, request.cookies[TransactionCookie.transactionCookieName(isSecure(client))], now)
    if (transaction === undefined) return refuse(SIGN_IN_REFUSALS.signInFailed)
    const finished = yield* Effect.either(client.finish(queryOf(request.url), transaction))
    if (finished._tag === "Left") {
      const error = finished.left
      const what = error._tag === "OidcUnavailable" ? "the provider could not be reached" : "the provider's answer was refused"
      yield* Effect.logWarning(`Single sign-on: ${what}: ${describe(error.cause)}`)
      return refuse(error._tag === "OidcUnavailable" ? SIGN_IN_REFUSALS.providerUnavailable : refusalMessage(error))
    }
    const claims = finished.right
    if (claims.email === undefined) return refuse(SIGN_IN_REFUSALS.emailUnusable)
    const user = yield* Effect.either(
      signIn.withSso({ issuer: claims.issuer, subject: claims.subject, email: claims.email, emailVerified: claims.emailVerified, name: claims.name }, { allowedDomains, defaultRole: defaultRole ?? "none" })
    )
    // withSso's refusals (unverified email, domain not allowed, account disabled) are worded for the sign-in page.
    if (user._tag === "Left") return user.left._tag === "Forbidden" ? refuse(user.left.message) : yield* Effect.fail(user.left)
    const session = yield* sessions.start(user.right.id)
    return redirect(transaction.returnTo).pipe(HttpServerResponse.setHeader("set-cookie", setSessionCookie(cookieSettings(publicUrl), session.token)))
  }).pipe(
    Effect.catchAll((error) =>
      Effect.as(Effect.logError("Single sign-on: the sign-in could not be completed", error), redirect(signInPageUrl(client.settings.publicUrl, SIGN_IN_REFUSALS.signInFailed)))
    )
  )

const callback = (client: OidcClient, signIn: SignInShape, sessions: SessionsShape) =>
  Effect.map(callbackAnswer(client, signIn, sessions), (answer) =>
    HttpServerResponse.expireCookie(answer, TransactionCookie.transactionCookieName(isSecure(client)), cookieOptions(client))
  )

/**
 * GET /auth/oidc/login and GET /auth/oidc/callback on the HttpApi router (serving/App.ts); 404
 * "not configured" for both when no provider is.
 */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const found = yield* Oidc
    const signIn = yield* SignIn
    const sessions = yield* Sessions
    yield* router.get(LOGIN_PATH, Option.match(found, { onNone: () => Effect.succeed(notConfigured), onSome: login }))
    yield* router.get(
      CALLBACK_PATH,
      Option.match(found, { onNone: () => Effect.succeed(notConfigured), onSome: (client) => callback(client, signIn, sessions) })
    )
  })
)
