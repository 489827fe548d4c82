/**
 * The configured single sign-on provider of this server, if any: what the sign-in routes
 * (adapters/http/signin) use, and what `GET /v1/auth/providers` shows (`oidc: { name }`).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as OidcClient from "./OidcClient.js"
import { oidcConfig, type OidcSettings } from "./OidcSettings.js"

export class Oidc extends Context.Tag("@flagport/adapters/oidc/Oidc")<Oidc, Option.Option<OidcClient.OidcClient>>() {}

/** The provider as `GET /v1/auth/providers` shows it: its button's label, or null when there is none. */
export const providerOf = (oidc: Option.Option<OidcClient.OidcClient>): { readonly name: string } | null =>
  Option.match(oidc, { onNone: () => null, onSome: (c) => ({ name: c.settings.name }) })

/** A provider from settings (none: single sign-on off). */
export const layer = (settings: Option.Option<OidcSettings>, options?: OidcClient.OidcClientOptions) =>
  Layer.succeed(Oidc, Option.map(settings, (s) => OidcClient.make(s, options)))

/**
 * From FLAGPORT_OIDC_* (OidcSettings.ts); a bad value fails the build, so the server does not
 * start. A configured provider is named in the log once, with the redirect URI to register.
 */
export const layerConfig = Layer.effect(
  Oidc,
  Effect.tap(Effect.map(oidcConfig, Option.map((s) => OidcClient.make(s))), (found) =>
    Option.match(found, {
      onNone: () => Effect.void,
      onSome: ({ settings }) =>
        Effect.logInfo(`Single sign-on: "${settings.name}" at ${settings.issuer.href} (redirect URI ${settings.redirectUri}); discovery at the first sign-in`)
    })
  )
)
