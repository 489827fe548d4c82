/**
 * Conflicts per environment through a real server on SQLite and PostgreSQL:
 * `GET .../targeting?environment=E` answers that configuration with `ETag: "E:<version>"`; a
 * targeting PUT naming it is refused (412) only when that environment's configuration (or the
 * flag's variations) changed; the flag's own ETag stays a flag-wide check; an ETag of another
 * environment or on another write is a 400. And change requests still apply on their base version.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { freshPostgresUrl, freshSqliteFile } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

const databases = {
  sqlite: Effect.map(freshSqliteFile, (file) => `sqlite:${file}`),
  postgres: freshPostgresUrl
}

const targeting = (environment: string, enabled = true) => ({ environment, enabled, defaultVariationKey: "on", offVariationKey: "off", rules: [] })

for (const [backend, database] of Object.entries(databases)) {
  describe(`targeting ETags on ${backend}`, () => {
    const scope = Effect.runSync(Scope.make())
    let t: TestServer
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      request(t.url, method, path, { key: t.keys.scoped, headers, ...(body === undefined ? {} : { body }) })
    const createFlag = async (key: string) =>
      expect((await call("POST", "/v1/projects/p1/flags", { key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })).status).toBe(201)
    const etagOf = async (key: string, environment: string) => {
      const reply = await call("GET", `/v1/projects/p1/flags/${key}/targeting?environment=${environment}`)
      expect(reply.status, reply.text).toBe(200)
      return reply.headers.get("etag")!
    }

    beforeAll(async () => {
      const url = await Effect.runPromise(Scope.extend(database, scope))
      t = await startServer(StorageLayer.fromDatabaseUrl(url))
    }, 120_000)
    afterAll(async () => {
      await t?.close()
      await Effect.runPromise(Scope.close(scope, Exit.void))
    })

    it("GET .../targeting answers one configuration with its own ETag; 404 for an unknown environment", async () => {
      await createFlag("shown")
      const reply = await call("GET", "/v1/projects/p1/flags/shown/targeting?environment=production")
      expect(reply.status).toBe(200)
      expect(reply.headers.get("etag")).toBe('"production:1"')
      expect(reply.body).toEqual({
        environmentKey: "production",
        enabled: false,
        defaultVariationKey: "on",
        offVariationKey: "off",
        prerequisites: [],
        rules: [],
        version: 1,
        lastEvaluatedAt: null
      })
      const unknown = await call("GET", "/v1/projects/p1/flags/shown/targeting?environment=staging")
      expect(unknown.status).toBe(404)
      expect((unknown.body as any).error.code).toBe("not_found")
      expect((await call("GET", "/v1/projects/p1/flags/shown/targeting")).status).toBe(400)
      expect((await call("GET", "/v1/projects/p1/flags/nope/targeting?environment=production")).status).toBe(404)
    })

    it("a development change does not block a production save based on production's ETag; a production change does", async () => {
      await createFlag("per-env")
      const production = await etagOf("per-env", "production")
      const flagEtag = (await call("GET", "/v1/projects/p1/flags/per-env")).headers.get("etag")!
      expect(flagEtag).toBe('"1"')
      expect((await call("PUT", "/v1/projects/p1/flags/per-env/targeting", targeting("development"))).status).toBe(200)
      expect((await call("PATCH", "/v1/projects/p1/flags/per-env", { name: "Renamed" })).status).toBe(200)

      // Flag-wide: the flag's ETag from before is stale (412 naming the flag's version).
      const flagWide = await call("PUT", "/v1/projects/p1/flags/per-env/targeting", targeting("production"), { "if-match": flagEtag })
      expect(flagWide.status).toBe(412)
      expect(flagWide.body).toEqual({
        error: {
          code: "precondition_failed",
          message: "Flag 'per-env' is at version 3, not the version named by If-Match",
          details: [{ path: "If-Match", message: 'the current version is "3"' }]
        }
      })
      // Per environment: production did not change, so the save goes through.
      const saved = await call("PUT", "/v1/projects/p1/flags/per-env/targeting", targeting("production"), { "if-match": production })
      expect(saved.status, saved.text).toBe(200)
      expect(saved.headers.get("etag")).toBe('"4"')
      expect((saved.body as any).configs.map((c: any) => [c.environmentKey, c.version])).toEqual([["development", 2], ["production", 4]])
      expect(await etagOf("per-env", "production")).toBe('"production:4"')
      expect(await etagOf("per-env", "development")).toBe('"development:2"')

      // The same save again on the old production ETag: production changed since.
      const stale = await call("PUT", "/v1/projects/p1/flags/per-env/targeting", targeting("production", false), { "if-match": production })
      expect(stale.status).toBe(412)
      expect(stale.body).toEqual({
        error: {
          code: "precondition_failed",
          message: "The targeting of flag 'per-env' in 'production' is at version 4, not the version named by If-Match",
          details: [{ path: "If-Match", message: 'the current version is "production:4"' }]
        }
      })
      // A refused write changed nothing.
      expect((await call("GET", "/v1/projects/p1/flags/per-env")).headers.get("etag")).toBe('"4"')
    })

    it("new variations conflict with every environment's ETag; a configuration ETag elsewhere is a 400", async () => {
      await createFlag("variations")
      const development = await etagOf("variations", "development")
      expect((await call("PATCH", "/v1/projects/p1/flags/variations", {
        variations: [{ key: "on", value: true, name: "On" }, { key: "off", value: false }]
      })).status).toBe(200)
      const refused = await call("PUT", "/v1/projects/p1/flags/variations/targeting", targeting("development"), { "if-match": development })
      expect(refused.status).toBe(412)
      const fresh = await etagOf("variations", "development")
      expect(fresh).toBe('"development:2"')

      const otherEnvironment = await call("PUT", "/v1/projects/p1/flags/variations/targeting", targeting("production"), { "if-match": fresh })
      expect(otherEnvironment.status).toBe(400)
      expect((otherEnvironment.body as any).error.details).toEqual([
        { path: "If-Match", message: "expected the ETag of 'production' (GET .../targeting?environment=production) or the flag's" }
      ])
      for (const [method, path, body] of [
        ["PATCH", "/v1/projects/p1/flags/variations", { name: "x" }],
        ["DELETE", "/v1/projects/p1/flags/variations", undefined],
        ["POST", "/v1/projects/p1/environments/production/copy", { from: "development", flags: ["variations"] }]
      ] as const) {
        const reply = await call(method, path, body, { "if-match": fresh })
        expect({ method, status: reply.status }).toEqual({ method, status: 400 })
        expect((reply.body as any).error.details[0].path).toBe("If-Match")
      }
      expect((await call("PUT", "/v1/projects/p1/flags/variations/targeting", targeting("development"), { "if-match": fresh })).status).toBe(200)
    })

    it("concurrent saves naming one configuration ETag: exactly one succeeds", async () => {
      await createFlag("race")
      const etag = await etagOf("race", "production")
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) => call("PUT", "/v1/projects/p1/flags/race/targeting", { ...targeting("production"), rules: [{ conditions: [{ attribute: "n", operator: "in", values: [String(i)] }], variationKey: "on" }] }, { "if-match": etag }))
      )
      expect(replies.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412, 412, 412, 412])
    })
  })
}
