/**
 * The OpenAPI document of the API, made once, on first use, and shared by `GET /openapi.json`,
 * `GET /docs` (Docs.ts) and the handlers' `openApi()` (Embed.ts). Making it walks every endpoint's
 * schemas (about 0.1 s for this API): a server that made it while starting, three times as it did,
 * answered its first evaluation that much later (bench/startup.bench.ts).
 */
import * as Effect from "effect/Effect"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as OpenApi from "@effect/platform/OpenApi"

const made = new WeakMap<object, OpenApi.OpenAPISpec>()

/** The document of `api` (the same object for the same api). */
export const specOf = (api: HttpApi.HttpApi.Any): OpenApi.OpenAPISpec => {
  let spec = made.get(api)
  if (spec === undefined) {
    spec = OpenApi.fromApi(api as Parameters<typeof OpenApi.fromApi>[0])
    made.set(api, spec)
  }
  return spec
}

/**
 * `GET path` on the HttpApi router: the document as JSON, made on the first request. What
 * `HttpApiBuilder.middlewareOpenApi` serves, without making the document when the app is built.
 */
export const layer = (path: HttpRouter.PathInput) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function* () {
      const { api } = yield* HttpApi.Api
      let response: HttpServerResponse.HttpServerResponse | undefined
      yield* router.get(path, Effect.sync(() => (response ??= HttpServerResponse.unsafeJson(specOf(api)))))
    })
  )
