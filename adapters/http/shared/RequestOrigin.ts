/**
 * Where this server is reached from outside, for the absolute URLs it hands out (OFREP's stream
 * URLs; the people features' redirect URI and CSRF origin use the same setting).
 *
 * `FLAGPORT_PUBLIC_URL` (e.g. `https://flags.example.com`, or `https://example.com/flags` behind
 * a proxy or host that serves Flagport under a path) is the base the routes hang off: `/v1/stream`
 * is `<public URL>/v1/stream`. When it is set, nothing in a request (Host, X-Forwarded-*) goes into
 * a URL. When it is not, the request's origin is used, but only an `http`/`https` scheme and a
 * host that is syntactically a host name or address with an optional port: a header is the
 * caller's to choose, and whatever we copy from it ends up in a URL a browser follows.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
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
 * Parses a public URL: absolute, http or https, with a host, no credentials, query or fragment.
 * Answers it without a trailing slash (`https://example.com/flags`), or why it is refused.
 */
export const parsePublicUrl = (raw: string): Either.Either<string, string> => {
  const text = raw.trim()
  if (!URL.canParse(text)) return Either.left("must be an absolute http or https URL, e.g. https://flags.example.com")
  const url = new URL(text)
  if (url.protocol !== "http:" && url.protocol !== "https:") return Either.left("must use the http or https scheme")
  if (url.hostname === "") return Either.left("must name a host")
  if (url.username !== "" || url.password !== "") return Either.left("must not contain a user name or password")
  if (url.search !== "" || url.hash !== "" || text.includes("?") || text.includes("#")) {
    return Either.left("must not have a query or fragment")
  }
  return Either.right(`${url.origin}${url.pathname.replace(/\/+$/, "")}`)
}

/** FLAGPORT_PUBLIC_URL (unset or empty: none); a malformed value stops the start, naming the variable. */
export const publicUrlConfig: Config.Config<Option.Option<string>> = Config.string("FLAGPORT_PUBLIC_URL").pipe(
  Config.withDefault(""),
  Config.mapOrFail((raw) =>
    raw.trim() === ""
      ? Either.right(Option.none())
      : Either.mapBoth(parsePublicUrl(raw), {
          onLeft: (why) => ConfigError.InvalidData([], `${why} (got ${JSON.stringify(raw)})`),
          onRight: Option.some
        })
  )
)

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

/** `https://example.com` of a public URL `https://example.com/flags`. */
export const originOfUrl = (publicUrl: string): string => new URL(publicUrl).origin
