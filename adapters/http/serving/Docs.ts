/**
 * GET /docs: the API reference (Scalar), offline, as a page with no inline script, so its
 * Content-Security-Policy can allow scripts from this origin only. The viewer's toolbar (Share,
 * Generate SDKs, Developer Tools: cloud features that do not work offline) is turned off.
 *
 * The viewer's 3.4 MB bundle is the one @effect/platform ships for `HttpApiScalar`; it is served
 * apart at /docs/scalar.js, gzipped when the browser accepts it and revalidated by ETag, instead
 * of inlined into every page. Why we read it from the platform: docs/internals/decisions.md ("/docs").
 */
import { createHash } from "node:crypto"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { promisify } from "node:util"
import { gzip } from "node:zlib"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as OpenApi from "@effect/platform/OpenApi"
import * as Effect from "effect/Effect"
import { acceptsGzip } from "../lane/EvaluationLane.js"
import { specOf } from "./OpenApiSpec.js"

export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  // The viewer compiles a WebAssembly module ('wasm-unsafe-eval' allows that, not JavaScript's eval).
  "script-src 'self' 'wasm-unsafe-eval'",
  // The viewer adds its styles as <style> elements from its script.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  // "Test Request" calls the API on this origin.
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

const PAGE_HEADERS = {
  "content-security-policy": DOCS_CONTENT_SECURITY_POLICY,
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache"
}

/**
 * The viewer's options: `bearerAuth` selected, the system's fonts (nothing fetched from outside),
 * no toolbar. Scalar reads them from the element's `data-configuration`.
 */
const CONFIGURATION = {
  _integration: "html",
  withDefaultFonts: false,
  showToolbar: "never",
  authentication: { preferredSecurityScheme: "bearerAuth" }
}

/** JSON safe inside a <script> data block: no `</script>`, no line terminators JS would choke on. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029")

const attribute = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

const page = (spec: OpenApi.OpenAPISpec, prefix: string): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${attribute(spec.info.title)} API reference</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <script id="api-reference" type="application/json" data-configuration="${attribute(JSON.stringify(CONFIGURATION))}">${scriptJson(spec)}</script>
    <script src="${prefix}/docs/scalar.js"></script>
  </body>
</html>
`

interface Bundle {
  readonly raw: Uint8Array
  readonly gzipped: Uint8Array
  readonly etag: string
}

/** The platform's inlined Scalar bundle, read once, on the first request that needs it. */
const loadBundle = async (): Promise<Bundle> => {
  const platform = dirname(createRequire(import.meta.url).resolve("@effect/platform/package.json"))
  const module = (await import(pathToFileURL(join(platform, "dist", "esm", "internal", "httpApiScalar.js")).href)) as { javascript: string }
  const raw = new TextEncoder().encode(module.javascript)
  return {
    raw,
    gzipped: await promisify(gzip)(raw),
    etag: `"${createHash("sha256").update(raw).digest("base64url").slice(0, 27)}"`
  }
}

/** The page and the viewer's script (serving/Methods.ts reads them too). */
export const DOCS_PATH = "/docs"
export const VIEWER_PATH = "/docs/scalar.js"

/** GET /docs and GET /docs/scalar.js on the HttpApi router (so every transport serves them). */
export const layer = (prefix: string) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function* () {
      const { api } = yield* HttpApi.Api
      // Made on the first request (OpenApiSpec.ts), not while the server starts.
      let html: string | undefined
      let bundle: Promise<Bundle> | undefined
      const loaded = () => {
        bundle ??= loadBundle()
        // A failed load is tried again by the next request.
        bundle.catch(() => (bundle = undefined))
        return bundle
      }
      yield* router.get(
        DOCS_PATH,
        Effect.sync(() => HttpServerResponse.html((html ??= page(specOf(api), prefix))).pipe(HttpServerResponse.setHeaders(PAGE_HEADERS)))
      )
      yield* router.get(
        VIEWER_PATH,
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const found = yield* Effect.tryPromise(loaded).pipe(Effect.option)
          if (found._tag === "None") {
            return HttpServerResponse.text("The API reference viewer is not available; the API's description is at openapi.json.\n", { status: 503 })
          }
          const { raw, gzipped, etag } = found.value
          const headers = { etag, "cache-control": "no-cache", vary: "Accept-Encoding" }
          if (request.headers["if-none-match"] === etag) return HttpServerResponse.empty({ status: 304, headers })
          const zipped = acceptsGzip(request.headers["accept-encoding"])
          return HttpServerResponse.uint8Array(zipped ? gzipped : raw, {
            contentType: "text/javascript; charset=utf-8",
            headers: zipped ? { ...headers, "content-encoding": "gzip" } : headers
          })
        })
      )
    })
  )
