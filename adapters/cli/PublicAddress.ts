/**
 * Where a person opens the links the command line prints (setup links): FLAGPORT_PUBLIC_URL when
 * set, else the address the server listens on as this machine reaches it (a server on every
 * interface is `localhost`).
 */
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { setupUrl } from "../../src/domain/people/SetupLink.js"
import { publicUrlConfig } from "../settings/PublicUrl.js"

/** The defaults of PORT and HOST, as `serve` has them (adapters/http/serving/Server.ts, not loaded here: it is the heaviest import). */
const DEFAULT_PORT = 8080
const DEFAULT_HOST = "0.0.0.0"

/**
 * A URL one can open for a server listening on `host`:`port`: one on every interface (0.0.0.0,
 * ::) is reached from this machine as localhost, and a URL with 0.0.0.0 in it does not open in
 * every browser.
 */
export const openableUrl = (host: string, port: number): string => {
  if (host === "0.0.0.0" || host === "::") return `http://localhost:${port}`
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`
}

/** FLAGPORT_PUBLIC_URL, else the running server's own address (`serve`, which knows where it listens). */
export const publicUrlOr = (ownAddress: string) => Effect.map(publicUrlConfig, Option.getOrElse(() => ownAddress))

/**
 * For commands that run beside a server (`users create`, `users reset-password`): FLAGPORT_PUBLIC_URL,
 * else where `serve` listens by default in this environment (HOST and PORT, else 0.0.0.0:8080).
 */
export const commandPublicUrl = Effect.gen(function* () {
  const port = yield* Config.port("PORT").pipe(Config.withDefault(DEFAULT_PORT))
  const host = yield* Config.string("HOST").pipe(Config.withDefault(DEFAULT_HOST))
  return yield* publicUrlOr(openableUrl(host, port))
})

/** The line a setup token is printed as: `SETUP_URL=<public URL>/ui/setup#token=<token>`. */
export const setupUrlLine = (publicUrl: string, token: string): string => `SETUP_URL=${setupUrl(publicUrl, token)}`
