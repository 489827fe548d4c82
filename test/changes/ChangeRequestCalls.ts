/**
 * The calls the change-request tests make of a running server with a protected `production`:
 * as the global server key, as a person (session cookie), a flag's version, and opening a request
 * to `production` that turns flags on or off.
 */
import { expect } from "@effect/vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { asPerson, type Person } from "../http/people.js"

export const CRS = "/v1/projects/p1/change-requests"

/** A PUT-targeting body (without `environment`) that turns a flag on or off, no rules. */
export const targeting = (enabled: boolean, defaultVariationKey = "a") => ({ enabled, defaultVariationKey, offVariationKey: "b", rules: [] })

/** `server` is read at each call: the tests start it in `beforeAll`. */
export const changeRequestCalls = (server: () => TestServer) => {
  const key = (method: string, path: string, body?: unknown) => request(server().url, method, path, { key: server().keys.global, ...(body === undefined ? {} : { body }) })
  const as = (person: Person, method: string, path: string, body?: unknown) => asPerson(server().url, person.cookie, method, path, body)
  const version = async (flagKey: string) => ((await key("GET", `/v1/projects/p1/flags/${flagKey}`)).body as { version: number }).version
  /** A request by `person` turning `flagKeys` on (or off) in production: 201, its answer. */
  const open = async (person: Person, flagKeys: ReadonlyArray<string>, enabled = true): Promise<unknown> => {
    const reply = await as(person, "POST", CRS, {
      title: `Turn ${flagKeys.join(", ")} ${enabled ? "on" : "off"}`,
      environment: "production",
      changes: flagKeys.map((flagKey) => ({ flagKey, targeting: targeting(enabled) }))
    })
    expect(reply.status, reply.text).toBe(201)
    return reply.body
  }
  return { key, as, version, open }
}
