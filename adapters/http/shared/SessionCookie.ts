/**
 * The session cookie of docs/guide/people.md: `flagport_session=<token>; HttpOnly; SameSite=Lax; Path=/`,
 * with `Secure` and the `__Host-` name prefix when the server is reached over https (an https
 * public URL, or a trusted proxy's `X-Forwarded-Proto`: PeopleSettings.ts; a browser then takes
 * the cookie only from a secure origin, for this host alone, for every path: no sibling subdomain
 * or plain-http page can plant or shadow it). No `Expires`: the cookie lasts the browser session,
 * the server ends the session itself (12 h idle, 7 days in all).
 *
 * Pure functions; PeopleSettings.ts `cookieFor` chooses the settings of a request.
 */

export const COOKIE_NAME = "flagport_session"
export const SECURE_COOKIE_NAME = "__Host-flagport_session"

export interface CookieSettings {
  readonly name: string
  readonly secure: boolean
}

/** The cookie's name and `Secure` from the server's URL or origin for a request (none: plain http). */
export const cookieSettings = (serverUrl: string | undefined): CookieSettings =>
  serverUrl !== undefined && serverUrl.toLowerCase().startsWith("https:")
    ? { name: SECURE_COOKIE_NAME, secure: true }
    : { name: COOKIE_NAME, secure: false }

const attributes = (settings: CookieSettings) => `; HttpOnly; SameSite=Lax; Path=/${settings.secure ? "; Secure" : ""}`

/** The `Set-Cookie` value that signs the browser in. */
export const setSessionCookie = (settings: CookieSettings, token: string): string => `${settings.name}=${token}${attributes(settings)}`

/** The `Set-Cookie` value that removes the cookie (a sign-out, or a cookie that no longer works). */
export const clearSessionCookie = (settings: CookieSettings): string => `${settings.name}=${attributes(settings)}; Max-Age=0`

/** Our tokens are base64url; anything longer than this or with other characters is no token of ours. */
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/

/**
 * The session token of a `Cookie` header, if it carries our cookie with a well-formed value. A
 * header with the cookie twice (a planted duplicate) counts as none: which one the browser meant
 * cannot be told.
 */
export const sessionTokenOf = (settings: CookieSettings, cookieHeader: string | undefined): string | undefined => {
  const found = singleCookieValue(settings.name, cookieHeader)
  return found !== undefined && TOKEN.test(found) ? found : undefined
}

/** The value of the cookie `name` in a `Cookie` header; undefined when absent or there twice (a planted duplicate). */
export const singleCookieValue = (name: string, cookieHeader: string | undefined): string | undefined => {
  if (cookieHeader === undefined || cookieHeader === "") return undefined
  let found: string | undefined
  for (const pair of cookieHeader.split(";")) {
    const eq = pair.indexOf("=")
    if (eq === -1 || pair.slice(0, eq).trim() !== name) continue
    if (found !== undefined) return undefined
    found = pair.slice(eq + 1).trim()
  }
  return found
}

/** Whether the request carries our cookie at all (well-formed or not). */
export const hasSessionCookie = (settings: CookieSettings, cookieHeader: string | undefined): boolean =>
  cookieHeader !== undefined && cookieHeader.split(";").some((pair) => pair.split("=")[0]!.trim() === settings.name)
