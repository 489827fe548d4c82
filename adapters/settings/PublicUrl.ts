/**
 * FLAGPORT_PUBLIC_URL: where this server is reached from outside, for the absolute URLs it hands
 * out (OFREP's stream URLs, the people features' redirect URI and CSRF origin, single sign-on's
 * redirect URI, the setup links the CLI prints).
 *
 * `https://flags.example.com`, or `https://example.com/flags` behind a proxy or host that serves
 * Flagport under a path, is the base the routes hang off: `/v1/stream` is `<public URL>/v1/stream`.
 * When it is set, nothing in a request (Host, X-Forwarded-*) goes into a URL; when it is not, the
 * HTTP adapter uses the request's origin (adapters/http/shared/RequestOrigin.ts).
 *
 * A setting several rooms read (the HTTP adapter, single sign-on, the CLI), so it lives below them
 * all, importing nothing of the adapters.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"
import * as Option from "effect/Option"

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

/** `https://example.com` of a public URL `https://example.com/flags`. */
export const originOfUrl = (publicUrl: string): string => new URL(publicUrl).origin
