/**
 * A request's origin (`scheme://host`), for the absolute URLs this server hands out when
 * FLAGPORT_PUBLIC_URL (adapters/settings/PublicUrl.ts) is not set: only an `http`/`https` scheme
 * and a host that is syntactically a host name or address with an optional port. A header is the
 * caller's to choose, and whatever we copy from it ends up in a URL a browser follows.
 */
/** A DNS name (letters, digits, hyphens, underscores in labels; optional final dot). */
const HOST_NAME = /^(?=.{1,253}\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/
/** A bracketed IPv6 literal as a Host header carries it (hex groups, colons, an IPv4 tail). */
const IPV6_LITERAL = /^\[[0-9A-Fa-f:.]{2,45}\]$/

/**
 * True when `value` is `host` or `host:port` as a Host header may carry it: a DNS name, an IPv4
 * address or a bracketed IPv6 address, with a port of 1 to 65535.
 */
export const isValidHost = (value: string): boolean => {
  const colon = value.lastIndexOf(":")
  const hasPort = colon >= 0 && !value.slice(colon).includes("]")
  const host = hasPort ? value.slice(0, colon) : value
  if (hasPort) {
    const port = value.slice(colon + 1)
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return false
  }
  if (IPV6_LITERAL.test(host)) return URL.canParse(`http://${host}/`)
  return IPV4.test(host) || HOST_NAME.test(host)
}

/** `http` or `https` (any case, as written by a proxy), lower-cased; undefined for anything else. */
export const webScheme = (value: string): "http" | "https" | undefined => {
  const lower = value.toLowerCase()
  return lower === "http" || lower === "https" ? lower : undefined
}

/**
 * `scheme://host` from what a request says, or undefined when the host is not a valid host:
 * a scheme other than http/https is replaced by `http`, never copied.
 */
export const requestOrigin = (scheme: string | undefined, host: string | undefined): string | undefined => {
  if (host === undefined || !isValidHost(host)) return undefined
  return `${(scheme === undefined ? undefined : webScheme(scheme)) ?? "http"}://${host.toLowerCase()}`
}

/**
 * The last value of a list header: the one the nearest proxy (the trusted one) wrote. A proxy that
 * appends leaves the client's own values first, so the first one would be the client's choice.
 */
const lastValue = (header: string | undefined): string | undefined => {
  const value = header?.split(",").pop()?.trim()
  return value === undefined || value === "" ? undefined : value
}

/**
 * `scheme://host` of a request: its `Host` over http, or from a trusted proxy
 * (`forwarded`: TrustProxy.ts decides) `X-Forwarded-Proto` and `X-Forwarded-Host` (last values); undefined
 * when the host is not a valid host. A forwarded host that is not valid is not replaced by `Host`:
 * the proxy said something else.
 */
export const originOf = (header: (name: string) => string | undefined, forwarded: boolean): string | undefined => {
  const forwardedHost = forwarded ? lastValue(header("x-forwarded-host")) : undefined
  const scheme = forwarded ? lastValue(header("x-forwarded-proto")) : undefined
  return requestOrigin(scheme, forwardedHost ?? header("host"))
}
