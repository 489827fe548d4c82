/**
 * Route templates (serving/RouteTemplate.ts): every endpoint the HttpApi declares is found from a
 * path of its shape, literal segments win over parameters, and anything else is `unmatched`.
 */
import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { FlagportApi } from "../../adapters/http/api/Api.js"
import { routeOf } from "../../adapters/http/lane/Routes.js"
import { apiTemplate, fastTemplate, UNMATCHED } from "../../adapters/http/serving/RouteTemplate.js"

const declared: Array<{ method: string; path: string }> = []
HttpApi.reflect(FlagportApi, { onGroup: () => {}, onEndpoint: ({ endpoint }) => void declared.push({ method: endpoint.method, path: endpoint.path }) })

/** A concrete path of a template's shape (each parameter given a value). */
const concrete = (template: string) => template.replace(/:[A-Za-z]+/g, "x-1")

describe("route templates", () => {
  it("every declared endpoint's path maps back to a template of the same shape", () => {
    expect(declared.length).toBeGreaterThan(50)
    for (const { method, path } of declared) {
      const found = apiTemplate(method, concrete(path))
      expect(found, `${method} ${path}`).not.toBe(UNMATCHED)
      expect(concrete(found), `${method} ${path}`).toBe(concrete(path))
    }
  })

  it("literal segments win over parameters, HEAD is GET, the dashboard is one template", () => {
    expect(apiTemplate("GET", "/v1/projects/p1/flags/f")).toBe("/v1/projects/:projectId/flags/:flagKey")
    expect(apiTemplate("HEAD", "/health")).toBe("/health")
    expect(apiTemplate("GET", "/ui/assets/app.js")).toBe("/ui/*")
    expect(apiTemplate("GET", "/metrics")).toBe("/metrics")
  })

  it("unknown paths, methods and empty segments are unmatched", () => {
    expect(apiTemplate("GET", "/wp-admin/setup.php")).toBe(UNMATCHED)
    expect(apiTemplate("BREW", "/v1/projects")).toBe(UNMATCHED)
    expect(apiTemplate("GET", "/v1/projects//flags")).toBe(UNMATCHED)
    expect(apiTemplate("GET", "/v1/projects/p1/flags/f/extra/more")).toBe(UNMATCHED)
  })

  it("lane routes have constant templates", () => {
    expect(fastTemplate(routeOf("GET", "/v1/flags/anything/eval")!)).toBe("/v1/flags/:flagKey/eval")
    expect(fastTemplate(routeOf("POST", "/ofrep/v1/evaluate/flags/k")!)).toBe("/ofrep/v1/evaluate/flags/:key")
    expect(fastTemplate(routeOf("OPTIONS", "/v1/evaluate")!)).toBe("preflight")
  })
})
