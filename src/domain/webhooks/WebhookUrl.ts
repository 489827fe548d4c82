import type { Problem } from "../Errors.js"

/**
 * Webhook destinations: which URLs are accepted, and which resolved addresses count as private
 * (for the opt-in FLAGPORT_WEBHOOK_BLOCK_PRIVATE setting, applied by the HTTP transport after DNS).
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

const parseIPv4 = (text: string): ReadonlyArray<number> | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN))
  return bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255) ? bytes : undefined
}

/** Eight 16-bit groups of an IPv6 address (zone id dropped, embedded IPv4 tail allowed). */
const parseIPv6 = (text: string): ReadonlyArray<number> | undefined => {
  let rest = text.split("%")[0] ?? ""
  const lastColon = rest.lastIndexOf(":")
  if (lastColon >= 0 && rest.slice(lastColon + 1).includes(".")) {
    // Rewrite an IPv4 tail (::ffff:1.2.3.4) as two hex groups, then parse plain hex.
    const v4 = parseIPv4(rest.slice(lastColon + 1))
    if (v4 === undefined) return undefined
    const hi = ((v4[0]! << 8) | v4[1]!).toString(16)
    const lo = ((v4[2]! << 8) | v4[3]!).toString(16)
    rest = `${rest.slice(0, lastColon + 1)}${hi}:${lo}`
  }
  const halves = rest.split("::")
  if (halves.length > 2) return undefined
  const groups = (s: string) => (s === "" ? [] : s.split(":"))
  const head = groups(halves[0]!)
  const back = halves.length === 2 ? groups(halves[1]!) : []
  const word = (g: string) => (/^[0-9a-fA-F]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)
  const gap = halves.length === 2 ? 8 - head.length - back.length : 0
  if (halves.length === 2 && gap < 1) return undefined
  const words = [...head.map(word), ...Array<number>(gap).fill(0), ...back.map(word)]
  return words.length === 8 && words.every((w) => !Number.isNaN(w)) ? words : undefined
}

const privateIPv4 = ([a, b, c]: ReadonlyArray<number>): boolean =>
  a === 0 || // "this" network
  a === 10 || // RFC 1918
  a === 127 || // loopback
  (a === 100 && b! >= 64 && b! <= 127) || // carrier-grade NAT
  (a === 169 && b === 254) || // link-local (cloud metadata lives here)
  (a === 172 && b! >= 16 && b! <= 31) || // RFC 1918
  (a === 192 && b === 168) || // RFC 1918
  (a === 192 && b === 0 && c === 0) || // IETF protocol assignments
  (a === 198 && (b === 18 || b === 19)) || // benchmarking
  a! >= 224 // multicast, reserved, broadcast

/**
 * True when an IP address (v4 or v6 text) is private, loopback, link-local, unique-local,
 * multicast or otherwise not a public unicast destination. IPv4-mapped and NAT64 IPv6 addresses are
 * judged by the IPv4 address inside. Text that is not an IP address counts as private (refuse what
 * we cannot classify).
 */
export const isPrivateAddress = (address: string): boolean => {
  const v4 = parseIPv4(address)
  if (v4 !== undefined) return privateIPv4(v4)
  const v6 = parseIPv6(address)
  if (v6 === undefined) return true
  const [w0, w1, w2, w3, w4, w5, w6, w7] = v6 as [number, number, number, number, number, number, number, number]
  const embedded = [w6 >> 8, w6 & 0xff, w7 >> 8, w7 & 0xff]
  if (w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0 && w4 === 0) {
    if (w5 === 0xffff) return privateIPv4(embedded) // ::ffff:a.b.c.d
    if (w5 === 0) return true // ::, ::1 and the deprecated IPv4-compatible form
  }
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) return privateIPv4(embedded)
  return (
    (w0 & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (w0 & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (w0 & 0xffc0) === 0xfec0 || // deprecated site-local
    (w0 & 0xff00) === 0xff00 || // multicast
    (w0 === 0x2001 && w1 === 0x0db8) // documentation
  )
}
