/**
 * The route table (src/domain/auth/Permissions.ts) against the HttpApi declaration: every
 * endpoint behind the management security middlewares (ManagementAuth, TopLevelAuth) has its row, so no management route can
 * be reached without a permission decided for it, and no row outlives its route.
 */
import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "vitest"
import { FlagportApi } from "../../adapters/http/api/Api.js"
import { ManagementAuth, TopLevelAuth } from "../../adapters/http/api/Security.js"
import { requirementOf, ROUTE_REQUIREMENTS, routeKey } from "../../src/domain/auth/RoutePermissions.js"

const declared = (): { management: Array<string>; other: Array<string> } => {
  const management: Array<string> = []
  const other: Array<string> = []
  HttpApi.reflect(FlagportApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, middleware }) => {
      const key = routeKey(endpoint.method, endpoint.path)
      if (middleware.has(ManagementAuth as never) || middleware.has(TopLevelAuth as never)) management.push(key)
      else other.push(key)
    }
  })
  return { management, other }
}

describe("the management route table", () => {
  it("has a row for every management endpoint the API declares", () => {
    const { management } = declared()
    expect(management.length).toBeGreaterThan(30)
    expect(management.filter((route) => requirementOf(route.split(" ")[0]!, route.split(" ")[1]!) === undefined)).toEqual([])
  })

  it("has no row without a management endpoint (the table and the declaration are the same routes)", () => {
    const { management } = declared()
    expect(Object.keys(ROUTE_REQUIREMENTS).sort()).toEqual([...management].sort())
  })

  it("has no row for an endpoint outside the management middleware (evaluation, service, sign-in)", () => {
    const { other } = declared()
    expect(other.filter((route) => Object.hasOwn(ROUTE_REQUIREMENTS, route))).toEqual([])
  })
})
