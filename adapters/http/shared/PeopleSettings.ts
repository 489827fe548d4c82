/**
 * What the sign-in routes and the session side know about this server, and the decisions made
 * from it: this server's origin and base URL for a request, and the CSRF check of cookie writes.
 */
import { PeopleMessages } from "../../../src/domain/auth/PeopleMessages.js"
import * as Errors from "./Errors.js"
import { originOfUrl } from "../../settings/PublicUrl.js"
import { originOf } from "./RequestOrigin.js"
import { type CookieSettings, cookieSettings } from "./SessionCookie.js"
import { forwardedHeadersTrusted, type TrustProxy } from "./TrustProxy.js"

/**
 * The public URL (setup links, the CSRF origin, the session cookie's `Secure`), the mount prefix
 * and which proxies' X-Forwarded-* headers are believed (the origin without a public URL; the
 * client's address).
 */
export interface PeopleSettings {
  /** FLAGPORT_PUBLIC_URL (normalised: no trailing slash), if set. */
  readonly publicUrl: string | undefined
  readonly prefix: string
  readonly trustProxy: TrustProxy
}

/** A request's headers as the HttpApi side holds them (lower-case names). */
export type HeaderBag = Readonly<Record<string, string | undefined>>

/** The socket address a request came from (a proxy's, behind one), when known. */
export type PeerAddress = string | undefined

/**
 * This server's origin for a request: the public URL's, else the origin the request reached
 * (`Host` over http, or a trusted proxy's forwarded scheme and host).
 */
export const serverOrigin = (settings: PeopleSettings, headers: HeaderBag, peer: PeerAddress): string | undefined =>
  settings.publicUrl !== undefined
    ? originOfUrl(settings.publicUrl)
    : originOf((name) => headers[name], forwardedHeadersTrusted(settings.trustProxy, peer))

/**
 * The session cookie of a request: `Secure` with the `__Host-` name when this server's origin for
 * it is https, that is an https public URL, or without one a trusted proxy's
 * `X-Forwarded-Proto: https` (a proxy that ends TLS). The cookie is read under the same name it
 * is set with, so a plain-http page cannot plant one that an https request would take.
 */
export const cookieFor = (settings: PeopleSettings, headers: HeaderBag, peer: PeerAddress): CookieSettings =>
  cookieSettings(serverOrigin(settings, headers, peer))

/** Where this server is reached (links handed out, e.g. setup links): the public URL, else the request's origin and the mount prefix. */
export const serverBase = (settings: PeopleSettings, headers: HeaderBag, peer: PeerAddress): string | undefined => {
  if (settings.publicUrl !== undefined) return settings.publicUrl
  const origin = originOf((name) => headers[name], forwardedHeadersTrusted(settings.trustProxy, peer))
  return origin === undefined ? undefined : `${origin}${settings.prefix}`
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** The longest received `Origin` repeated in a refusal's details (a browser's is far shorter). */
const SHOWN_ORIGIN_LENGTH = 200

/**
 * Why `origin` is not this server's: the origin expected and where it comes from (the public URL,
 * or the address the request reached, which differs when the page was opened at another name of
 * the server), and what was received. The server's own origin is no secret: its pages carry it.
 */
const originProblem = (settings: PeopleSettings, expected: string | undefined, origin: string | undefined): Errors.ProblemDetail => {
  const received = origin === undefined
    ? "none was sent"
    : `got ${origin.length > SHOWN_ORIGIN_LENGTH ? `${origin.slice(0, SHOWN_ORIGIN_LENGTH)}...` : origin}`
  if (expected === undefined) {
    return { path: "Origin", message: `this server's origin is unknown (the request named no Host and FLAGPORT_PUBLIC_URL is not set); ${received}` }
  }
  const source = settings.publicUrl === undefined ? "the origin this request reached" : "FLAGPORT_PUBLIC_URL's origin"
  return { path: "Origin", message: `expected ${expected} (${source}); ${received}` }
}

/**
 * CSRF: a browser sends the cookie with a request another site makes it send, but it also sends
 * that site's `Origin`, which the page cannot forge. An unsafe method carried by the cookie needs
 * `Origin` equal to this server's origin (a missing one is refused: every browser sends it on
 * these methods, and a non-browser client has a key to use). The refusal's `details` say which
 * origin was expected: a server opened at an address other than its public URL is refused, and
 * the message alone would not say why.
 */
export const crossSiteRefusal = (
  settings: PeopleSettings,
  method: string,
  headers: HeaderBag,
  peer: PeerAddress
): Errors.ForbiddenError | undefined => {
  if (!UNSAFE.has(method.toUpperCase())) return undefined
  const expected = serverOrigin(settings, headers, peer)
  const origin = headers.origin?.toLowerCase()
  return expected !== undefined && origin === expected.toLowerCase()
    ? undefined
    : Errors.forbidden(PeopleMessages.crossSite, [originProblem(settings, expected, origin)])
}

