/**
 * A not-found answer keeps its message word for word and offers help in `details`: the near match
 * of a mistyped flag key, and the project's environments (with the near match, if any) for an
 * unknown environment; a name near nothing gets no guess. Through a real server on SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { nearMatch } from "../../src/domain/NearMatch.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

describe("not found: the near match in details", () => {
  let t: TestServer
  const key = (method: string, path: string, body?: unknown) =>
    request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })

  beforeAll(async () => {
    t = await startServer(freshStorage("sqlite"))
    const variations = [{ key: "on", value: true }, { key: "off", value: false }]
    for (const flagKey of ["new-checkout", "dark-mode"]) {
      expect((await key("POST", "/v1/projects/p1/flags", { key: flagKey, type: "boolean", variations })).status).toBe(201)
    }
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("a mistyped flag key: the contract's message, 'did you mean' in details", async () => {
    const answer = await key("GET", "/v1/projects/p1/flags/new-chekout")
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual({
      error: { code: "not_found", message: "Flag 'new-chekout' not found in project 'p1'", details: [{ path: "flagKey", message: "did you mean 'new-checkout'?" }] }
    })
    const far = await key("GET", "/v1/projects/p1/flags/something-else")
    expect(far.body).toEqual({ error: { code: "not_found", message: "Flag 'something-else' not found in project 'p1'" } })
  })

  it("an unknown environment: the project's environments, and the near match when there is one", async () => {
    const prod = await key("GET", "/v1/projects/p1/flags/dark-mode/targeting?environment=prod")
    expect(prod.status).toBe(404)
    expect(prod.body).toEqual({
      error: {
        code: "not_found",
        message: "Environment 'prod' not found in project 'p1'",
        details: [{ path: "environment", message: "the project's environments: development, production" }]
      }
    })
    const typo = await key("PUT", "/v1/projects/p1/flags/dark-mode/targeting", {
      environment: "producton", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: []
    })
    expect(typo.status).toBe(404)
    expect((typo.body as { error: { details: unknown } }).error.details).toEqual([
      { path: "environment", message: "did you mean 'production'?" },
      { path: "environment", message: "the project's environments: development, production" }
    ])
  })

  it("nearMatch: a typo or a swapped pair is near, another name is not", () => {
    expect(nearMatch("new-chekout", ["dark-mode", "new-checkout"])).toBe("new-checkout")
    expect(nearMatch("dakr-mode", ["dark-mode"])).toBe("dark-mode")
    expect(nearMatch("Dark-Mode", ["dark-mode"])).toBe("dark-mode")
    expect(nearMatch("prod", ["development", "production"])).toBeUndefined()
    expect(nearMatch("ab", ["xy"])).toBeUndefined()
  })
})
