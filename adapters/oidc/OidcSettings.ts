/**
 * Single sign-on settings (docs/guide/people.md, "Single sign-on"), read from the environment like the
 * other FLAGPORT_* settings:
 *
 * - FLAGPORT_OIDC_ISSUER: the provider's issuer URL; unset or empty, single sign-on is off.
 * - FLAGPORT_OIDC_CLIENT_ID, FLAGPORT_OIDC_CLIENT_SECRET: the client registered at the provider.
 * - FLAGPORT_PUBLIC_URL: where browsers reach Flagport; the redirect URI to register is
 *   `<public URL>/auth/oidc/callback`.
 * - FLAGPORT_OIDC_NAME: the sign-in button's label (default "Single sign-on").
 * - FLAGPORT_OIDC_ALLOWED_DOMAINS: comma list of email domains; empty allows every domain.
 * - FLAGPORT_OIDC_DEFAULT_ROLE: the role a new person gets in every project (viewer, editor,
 *   admin), or `none`; default viewer.
 *
 * A half-configured provider (an issuer without a client, or without a public URL) stops the start
 * with a message naming the variable: a sign-in button that can only fail is worse than none.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { Role } from "../../src/domain/people/Role.js"
import * as SsoDomain from "../../src/domain/people/SsoDomain.js"
import { parsePublicUrl } from "../settings/PublicUrl.js"

export interface OidcSettings {
  /** The issuer identifier as configured (discovery reads `<issuer>/.well-known/openid-configuration`). */
  readonly issuer: URL
  /** An `http://` issuer on this machine (development, tests): openid-client's insecure requests, allowed for it only. */
  readonly insecure: boolean
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  /** FLAGPORT_PUBLIC_URL without a trailing slash: where sign-ins return to. */
  readonly publicUrl: string
  /** `<public URL>/auth/oidc/callback`, registered at the provider. */
  readonly redirectUri: string
  /** The sign-in button's label. */
  readonly name: string
  /** Lowercase email domains allowed to sign in; empty: every domain. */
  readonly allowedDomains: ReadonlyArray<string>
  /** The role a person created by their first sign-in gets in every project; null: none. */
  readonly defaultRole: Role | null
}

export const DEFAULT_NAME = "Single sign-on"
export const CALLBACK_PATH = "/auth/oidc/callback"
export const LOGIN_PATH = "/auth/oidc/login"

/** The hosts an `http://` issuer may name: this machine only (a test or development provider). */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1"])

/**
 * The issuer URL, or why it is refused: absolute, https; http only on localhost / 127.0.0.1
 * (anything else would send the client secret and the codes in the clear); no query or fragment
 * (an issuer identifier has neither, OpenID Connect Discovery 1.0 section 3).
 */
export const parseIssuer = (raw: string): Either.Either<{ readonly url: URL; readonly insecure: boolean }, string> => {
  const text = raw.trim()
  if (!URL.canParse(text)) return Either.left("must be an absolute https URL, e.g. https://login.example.com/realms/main")
  const url = new URL(text)
  if (url.search !== "" || url.hash !== "" || text.includes("?") || text.includes("#")) return Either.left("must not have a query or fragment")
  if (url.username !== "" || url.password !== "") return Either.left("must not contain a user name or password")
  if (url.protocol === "https:") return Either.right({ url, insecure: false })
  if (url.protocol === "http:") {
    return LOCAL_HOSTS.has(url.hostname)
      ? Either.right({ url, insecure: true })
      : Either.left("must use https (http is accepted only for localhost and 127.0.0.1, for development and tests)")
  }
  return Either.left("must use https")
}

/** A DNS name as an email's domain carries it (labels of letters, digits, hyphens). */
const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/

/**
 * `example.com, @Example.org ,` -> `["example.com", "example.org"]` (the domain's reading,
 * SsoDomain.parseAllowedDomains: trimmed, lowercase, a leading `@` dropped, empty entries
 * skipped), duplicates once. Something that is not a domain is refused rather than kept: a typo
 * would otherwise lock out (or let in) other people than meant.
 */
export const parseAllowedDomains = (raw: string): Either.Either<ReadonlyArray<string>, string> => {
  const domains = SsoDomain.parseAllowedDomains(raw)
  const wrong = domains.find((domain) => !DOMAIN.test(domain))
  return wrong === undefined ? Either.right([...new Set(domains)]) : Either.left(`${JSON.stringify(wrong)} is not an email domain (expected e.g. example.com)`)
}

const ROLES: ReadonlyArray<Role> = ["viewer", "editor", "admin"]

/** `viewer` (default), `editor`, `admin` or `none` (no access until an admin adds them), any case. */
export const parseDefaultRole = (raw: string): Either.Either<Role | null, string> => {
  const value = raw.trim().toLowerCase()
  if (value === "" || value === "viewer") return Either.right("viewer")
  if (value === "none") return Either.right(null)
  const role = ROLES.find((r) => r === value)
  return role === undefined ? Either.left(`must be viewer, editor, admin or none (got ${JSON.stringify(raw)})`) : Either.right(role)
}

/** Shown as `Invalid data at <variable>: "<why>"`, as the other FLAGPORT_* settings' errors. */
const invalid = (variable: string, why: string) => ConfigError.InvalidData([variable], why)

/** A required variable's value, or a message saying why it is needed. */
const required = (name: string, value: string, why = "required when FLAGPORT_OIDC_ISSUER is set"): Either.Either<string, ConfigError.ConfigError> =>
  value.trim() === "" ? Either.left(ConfigError.MissingData([name], why)) : Either.right(value.trim())

/**
 * Everything read and checked together, from raw values (the Config below, and tests). None when
 * no issuer is configured.
 */
export const settingsFrom = (raw: {
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: string
  readonly publicUrl: string
  readonly name: string
  readonly allowedDomains: string
  readonly defaultRole: string
}): Either.Either<Option.Option<OidcSettings>, ConfigError.ConfigError> => {
  if (raw.issuer.trim() === "") return Either.right(Option.none())
  return Either.gen(function* () {
    const issuer = yield* Either.mapLeft(parseIssuer(raw.issuer), (why) => invalid("FLAGPORT_OIDC_ISSUER", `${why} (got ${JSON.stringify(raw.issuer)})`))
    const clientId = yield* required("FLAGPORT_OIDC_CLIENT_ID", raw.clientId)
    const clientSecret = yield* required("FLAGPORT_OIDC_CLIENT_SECRET", raw.clientSecret)
    const publicUrlRaw = yield* required(
      "FLAGPORT_PUBLIC_URL",
      raw.publicUrl,
      "required when FLAGPORT_OIDC_ISSUER is set (the redirect URI is <public URL>/auth/oidc/callback)"
    )
    const publicUrl = yield* Either.mapLeft(parsePublicUrl(publicUrlRaw), (why) => invalid("FLAGPORT_PUBLIC_URL", `${why} (got ${JSON.stringify(publicUrlRaw)})`))
    const allowedDomains = yield* Either.mapLeft(parseAllowedDomains(raw.allowedDomains), (why) => invalid("FLAGPORT_OIDC_ALLOWED_DOMAINS", why))
    const defaultRole = yield* Either.mapLeft(parseDefaultRole(raw.defaultRole), (why) => invalid("FLAGPORT_OIDC_DEFAULT_ROLE", why))
    return Option.some({
      issuer: issuer.url,
      insecure: issuer.insecure,
      clientId,
      clientSecret: Redacted.make(clientSecret),
      publicUrl,
      redirectUri: `${publicUrl}${CALLBACK_PATH}`,
      name: raw.name.trim() === "" ? DEFAULT_NAME : raw.name.trim(),
      allowedDomains,
      defaultRole
    } satisfies OidcSettings)
  })
}

const optional = (name: string) => Config.string(name).pipe(Config.withDefault(""))

/** The FLAGPORT_OIDC_* settings (and FLAGPORT_PUBLIC_URL); a bad value stops the start, naming the variable. */
export const oidcConfig: Config.Config<Option.Option<OidcSettings>> = Config.all({
  issuer: optional("FLAGPORT_OIDC_ISSUER"),
  clientId: optional("FLAGPORT_OIDC_CLIENT_ID"),
  clientSecret: Config.redacted("FLAGPORT_OIDC_CLIENT_SECRET").pipe(Config.map(Redacted.value), Config.withDefault("")),
  publicUrl: optional("FLAGPORT_PUBLIC_URL"),
  name: optional("FLAGPORT_OIDC_NAME"),
  allowedDomains: optional("FLAGPORT_OIDC_ALLOWED_DOMAINS"),
  defaultRole: optional("FLAGPORT_OIDC_DEFAULT_ROLE")
}).pipe(Config.mapOrFail(settingsFrom))
