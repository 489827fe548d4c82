/**
 * The HTTP API as one Effect layer: the HttpApi (handlers, security and error middlewares),
 * GET /openapi.json, GET /docs (Docs.ts: works offline), single sign-on's redirects
 * (signin/OidcRoutes.ts), and the evaluation lane service
 * (`EvaluationLaneService`, built by lane/EvaluationLaneLayer.ts over the shared `Authentication`).
 * It needs the storage-backed services (`HttpServices`); `Embed.ts` and `Server.ts` provide them
 * and turn the result into node / web handlers.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Layer from "effect/Layer"
import * as Composition from "../../app/Composition.js"
import { FlagportApi } from "../api/Api.js"
import { EvaluationAuthLive, ManagementAuthLive, SessionAuthLive, SignInBodyChecksLive, TopLevelAuthLive } from "../api/Auth.js"
import { HandlersLive } from "../api/HandlersLive.js"
import { ErrorEnvelopeLive } from "../api/Middleware.js"
import { NoStoreLive } from "../api/NoStore.js"
import * as EvaluationLaneLayer from "../lane/EvaluationLaneLayer.js"
import * as ManagementEvents from "../api/events/ManagementEvents.js"
import * as Authentication from "../shared/Authentication.js"
import * as OidcRoutes from "../signin/OidcRoutes.js"
import * as Docs from "./Docs.js"
import * as OpenApiSpec from "./OpenApiSpec.js"
import * as SignInFront from "./SignInFront.js"
import * as Oidc from "../../oidc/Oidc.js"
import type { OidcSettings } from "../../oidc/OidcSettings.js"
import type * as Option from "effect/Option"

/**
 * The services the HTTP adapter calls, and the change feed its caches listen to: what `layer`
 * asks for, read from its type (so a use case a handler starts calling is required with nothing
 * else to update); `servicesFrom` gives them all.
 */
export type HttpServices = Layer.Layer.Context<ReturnType<typeof layer>>

/** The HTTP services over a storage layer: the composition root's (adapters/app/Composition.ts). */
export const servicesFrom = Composition.servicesFrom

export interface HttpOptions {
  /** The path prefix the host mounts the API under (e.g. `/flags`); "" or absent for the root. */
  readonly prefix?: string
  /** Cache bounds of the evaluation lane (revocation lag, freshness interval). */
  readonly lane?: EvaluationLaneLayer.LaneConfig
  /**
   * Single sign-on (adapters/oidc): these settings (none: off), or when absent the FLAGPORT_OIDC_*
   * variables (a bad value fails the build, so a server does not start half-configured).
   */
  readonly oidc?: Option.Option<OidcSettings>
}

/** `/flags/` -> `/flags`; `` -> ``. A prefix must start with `/`. */
export const normalizePrefix = (prefix: string | undefined): string => {
  if (prefix === undefined || prefix === "" || prefix === "/") return ""
  const withSlash = prefix.startsWith("/") ? prefix : `/${prefix}`
  return withSlash.endsWith("/") ? withSlash.slice(0, -1) : withSlash
}

/** Where the OpenAPI document is served (serving/Methods.ts reads it too). */
export const OPENAPI_PATH = "/openapi.json"

const apis = new Map<string, ReturnType<typeof annotated>>()
const annotated = (prefix: string) =>
  FlagportApi.annotate(
    OpenApi.Servers,
    [prefix === "" ? { url: "/", description: "This Flagport server" } : { url: prefix, description: "Flagport, mounted by the host" }]
  )

/**
 * The API declaration as served under `prefix`: the OpenAPI `servers` entry names the prefix. The
 * same object for the same prefix, so its OpenAPI document is made once (OpenApiSpec.ts).
 */
export const apiFor = (prefix: string) => {
  let api = apis.get(prefix)
  if (api === undefined) {
    api = annotated(prefix)
    apis.set(prefix, api)
  }
  return api
}

/**
 * What the evaluation lane and the HttpApi share, built before either: the lane
 * (`EvaluationLaneService`), the management events streams, the sign-in front, one authenticator
 * (and key cache) and the sign-in provider. The lane answers evaluations with this alone.
 */
export const sharedLayer = (options: HttpOptions = {}) =>
  EvaluationLaneLayer.layer({ ...options.lane, prefix: normalizePrefix(options.prefix) }).pipe(
    // The management events streams (the same stream limits as the lane's change streams).
    Layer.provideMerge(ManagementEvents.layer(options.lane?.streamLimits === undefined ? {} : { streamLimits: options.lane.streamLimits })),
    // Sign-in floods refused before the app (SignInFront.ts), by the use cases' own guard.
    Layer.provideMerge(SignInFront.layer),
    // One authenticator (and key cache) for both paths, built beside them, not inside either.
    Layer.provideMerge(Authentication.layer({
      prefix: normalizePrefix(options.prefix),
      ...(options.lane?.keyTtlMs === undefined ? {} : { keyTtlMs: options.lane.keyTtlMs }),
      ...(options.lane?.publicUrl === undefined ? {} : { publicUrl: options.lane.publicUrl }),
      ...(options.lane?.trustProxy === undefined ? {} : { trustProxy: options.lane.trustProxy })
    })),
    // The sign-in provider, for the sign-in routes and GET /v1/auth/providers.
    Layer.provideMerge(options.oidc === undefined ? Oidc.layerConfig : Oidc.layer(options.oidc))
  )

/**
 * The HttpApi over what `sharedLayer` gives (and the services): handlers, security and error
 * middlewares, /openapi.json, /docs, single sign-on's redirects. Its outputs (`HttpApi.Api`, the
 * HttpApiBuilder `Router` and `Middleware`) are what `HttpApiBuilder.httpApp` needs.
 */
export const apiLayer = (options: HttpOptions = {}) => {
  const api = apiFor(normalizePrefix(options.prefix))
  const apiLive = HttpApiBuilder.api(api).pipe(
    Layer.provide(HandlersLive),
    Layer.provide([ManagementAuthLive, TopLevelAuthLive, SessionAuthLive, SignInBodyChecksLive, EvaluationAuthLive])
  )
  const docs = Layer.mergeAll(OpenApiSpec.layer(OPENAPI_PATH), Docs.layer(normalizePrefix(options.prefix))).pipe(
    Layer.provide(apiLive)
  )
  return Layer.mergeAll(apiLive, docs, OidcRoutes.layer, ErrorEnvelopeLive, NoStoreLive, HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer)
}

/**
 * The whole API as a layer: `apiLayer` over `sharedLayer`. Its outputs (`HttpApi.Api`, the HttpApiBuilder `Router` and
 * `Middleware`, `EvaluationLaneService`, `SignInFront`) are what `HttpApiBuilder.httpApp` and the transports need.
 */
export const layer = (options: HttpOptions = {}) => apiLayer(options).pipe(Layer.provideMerge(sharedLayer(options)))
