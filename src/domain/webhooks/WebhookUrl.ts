import type { Problem } from "../Errors.js"
import { isIpAddress, refusalOf } from "./DestinationAddress.js"

/**
 * Webhook destinations: which URLs are accepted. Which addresses are refused is
 * DestinationAddress.ts; an address written in the URL is judged here by its `always` rows, DNS
 * answers and the FLAGPORT_WEBHOOK_BLOCK_PRIVATE rows at delivery (adapters/webhook-http).
 */

export const MAX_URL_LENGTH = 2048

/** Spaces and C0 / DEL control characters (CR, LF, tab, NUL, ...), which a URL parser would silently drop. */
const SPACE_OR_CONTROL = /[\u0000-\u0020\u007f]/

/**
 * Problems with a destination URL: absolute, http or https, with a host, exactly as written (no
 * spaces or control characters, which parsers strip or re-encode, so the stored text would not be
 * the URL we call), and without credentials (`user:password@`), which would be stored in clear and
 * shown by every read of the webhook: a receiver authenticates deliveries by their signature.
 * Empty when acceptable.
 */
export const validateWebhookUrl = (url: string, path = "url"): ReadonlyArray<Problem> => {
  if (url.length > MAX_URL_LENGTH) return [{ path, message: `must be at most ${MAX_URL_LENGTH} characters` }]
  if (SPACE_OR_CONTROL.test(url)) return [{ path, message: "must not contain spaces or control characters" }]
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return [{ path, message: "must be an absolute http or https URL" }]
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return [{ path, message: "must use the http or https scheme" }]
  }
  if (parsed.hostname === "") return [{ path, message: "must name a host" }]
  if (parsed.username !== "" || parsed.password !== "") {
    return [{ path, message: "must not contain a user name or password; deliveries are authenticated by their signature" }]
  }
  const host = hostOf(url)
  const refusal = isIpAddress(host) ? refusalOf(host, false) : undefined
  if (refusal !== undefined) return [{ path, message: `must not name ${refusal.address}: it is ${refusal.what}, never a webhook destination` }]
  return []
}

/**
 * The URL as records show it: credentials, which only webhooks stored before they were refused
 * can hold, are removed, so no read ever returns them.
 */
export const displayedUrl = (url: string): string => {
  if (!URL.canParse(url)) return url
  const parsed = new URL(url)
  if (parsed.username === "" && parsed.password === "") return url
  parsed.username = ""
  parsed.password = ""
  return parsed.toString()
}

/** The host of a URL as an address or name, without IPv6 brackets. */
export const hostOf = (url: string): string => {
  const host = new URL(url).hostname
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
}
