/**
 * Every endpoint's success and the contract's error cases, through the standalone server over
 * HTTP, as one suite run on each SQL backend (Endpoints.test.ts: SQLite, EndpointsPg.test.ts:
 * PostgreSQL). The error bodies of both are compared with one golden file
 * (test/http/golden/error-bodies.json; regenerate with UPDATE_GOLDEN=1 after a deliberate change).
 * Every answer's status must be one that the OpenAPI document declares for its operation.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { gunzipSync } from "node:zlib"
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshStorage } from "../fixtures/databases.js"
import { declaredStatuses } from "./declared.js"
import { type Reply, request as send, startServer, type TestServer } from "./fixtures.js"

export const endpointSuite = (backend: "sqlite" | "postgres"): void => {
  describe(backend, () => {
    const GOLDEN = new URL("./golden/error-bodies.json", import.meta.url)
    const goldenBodies: Record<string, unknown> = {}

    let t: TestServer
    /** Every request of the suite with the status it got. */
    const answered: Array<{ readonly method: string; readonly path: string; readonly status: number }> = []
    const request = async (...args: Parameters<typeof send>): Promise<Reply> => {
      const reply = await send(...args)
      answered.push({ method: args[1], path: args[2], status: reply.status })
      return reply
    }
    const admin = () => ({ key: t.keys.global })
    const call = (method: string, path: string, body?: unknown, extra: { key?: string; headers?: Record<string, string> } = {}) =>
      request(t.url, method, path, { key: t.keys.global, ...extra, ...(body === undefined ? {} : { body }) })

    /** Checks status + envelope code, and records the body for the golden file. */
    const expectError = (name: string, reply: Reply, status: number, code: string) => {
      expect(reply.status, reply.text).toBe(status)
      expect(reply.headers.get("content-type")).toContain("application/json")
      const body = reply.body as { error: { code: string; message: string } }
      expect(body.error.code).toBe(code)
      expect(typeof body.error.message).toBe("string")
      // Generated ids vary from run to run; the golden file keeps their place, not their value.
      goldenBodies[name] = JSON.parse(JSON.stringify(body).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>"))
      return body
    }

    const flag = (key: string, extra: Record<string, unknown> = {}) => ({
      key,
      name: `Flag ${key}`,
      type: "string",
      variations: [
        { key: "A", value: "a" },
        { key: "B", value: "b" },
        { key: "C", value: "c" }
      ],
      ...extra
    })

    beforeAll(async () => {
      t = await startServer(freshStorage(backend))
    })
    afterAll(async () => {
      await t?.close()
      const expected = JSON.stringify(goldenBodies, null, 2) + "\n"
      // Both backends must give the same bodies; SQLite writes the file when asked to regenerate it.
      if (process.env["UPDATE_GOLDEN"] === "1" && backend === "sqlite") writeFileSync(GOLDEN, expected)
    })

    describe("projects", () => {
      it("lists and creates projects", async () => {
        const created = await call("POST", "/v1/projects", { id: "shop", name: "Shop" })
        expect(created.status).toBe(201)
        expect(created.body).toMatchObject({ id: "shop", name: "Shop" })
        const list = await call("GET", "/v1/projects")
        expect(list.status).toBe(200)
        expect((list.body as { data: Array<{ id: string }> }).data.map((p) => p.id)).toEqual(["p1", "p2", "shop"])
      })
      it("409 on a duplicate id, 400 on a bad slug", async () => {
        expectError("project.duplicate", await call("POST", "/v1/projects", { id: "p1", name: "Again" }), 409, "conflict")
        const bad = expectError("project.badSlug", await call("POST", "/v1/projects", { id: "Not A Slug", name: "" }), 400, "invalid_request")
        expect((bad as unknown as { error: { details: Array<{ path: string }> } }).error.details.map((d) => d.path).sort()).toEqual(["id", "name"])
      })
    })

    describe("environments", () => {
      it("creates an environment with a disabled configuration for every existing flag", async () => {
        expect((await call("POST", "/v1/projects/p2/flags", flag("env-flag"))).status).toBe(201)
        const created = await call("POST", "/v1/projects/p2/environments", { key: "staging", name: "Staging" })
        expect(created.status).toBe(201)
        expect(created.body).toMatchObject({ projectId: "p2", key: "staging", name: "Staging" })
        const list = await call("GET", "/v1/projects/p2/environments")
        expect((list.body as { data: Array<{ key: string }> }).data.map((e) => e.key)).toEqual(["development", "production", "staging"])
        const f = (await call("GET", "/v1/projects/p2/flags/env-flag")).body as { configs: Array<Record<string, unknown>> }
        expect(f.configs.find((c) => c.environmentKey === "staging")).toEqual({
          environmentKey: "staging",
          enabled: false,
          defaultVariationKey: "A",
          offVariationKey: "C",
          prerequisites: [],
          rules: [],
          lastEvaluatedAt: null
        })
      })
      it("404 for an unknown project, 409 for a duplicate key", async () => {
        expectError("environments.unknownProject", await call("GET", "/v1/projects/nope/environments"), 404, "not_found")
        expectError("environments.duplicate", await call("POST", "/v1/projects/p1/environments", { key: "development", name: "Dev" }), 409, "conflict")
      })
    })

    describe("flags", () => {
      it("creates a flag disabled in every environment, serving its off variation", async () => {
        const created = await call("POST", "/v1/projects/p1/flags", flag("checkout"))
        expect(created.status).toBe(201)
        expect(created.body).toMatchObject({ key: "checkout", type: "string", version: 1, description: null })
        const configs = (created.body as { configs: Array<{ environmentKey: string; enabled: boolean; offVariationKey: string }> }).configs
        expect(configs.map((c) => [c.environmentKey, c.enabled, c.offVariationKey])).toEqual([
          ["development", false, "C"],
          ["production", false, "C"]
        ])
      })
      it("lists, reads, patches and deletes", async () => {
        await call("POST", "/v1/projects/p1/flags", flag("lifecycle"))
        const list = await call("GET", "/v1/projects/p1/flags")
        expect((list.body as { data: Array<{ key: string }> }).data.map((f) => f.key)).toContain("lifecycle")
        expect((await call("GET", "/v1/projects/p1/flags/lifecycle")).body).toMatchObject({ key: "lifecycle" })
        const patched = await call("PATCH", "/v1/projects/p1/flags/lifecycle", { name: "Renamed", description: "Now described" })
        expect(patched.status).toBe(200)
        expect(patched.body).toMatchObject({ name: "Renamed", description: "Now described", version: 2 })
        const deleted = await call("DELETE", "/v1/projects/p1/flags/lifecycle")
        expect(deleted.status).toBe(204)
        expect(deleted.text).toBe("")
        expectError("flag.getDeleted", await call("GET", "/v1/projects/p1/flags/lifecycle"), 404, "not_found")
        expectError("flag.deleteUnknown", await call("DELETE", "/v1/projects/p1/flags/lifecycle"), 404, "not_found")
      })
      it("400 with every problem and its path", async () => {
        const body = expectError(
          "flag.invalid",
          await call("POST", "/v1/projects/p1/flags", {
            key: "bool-flag",
            type: "boolean",
            variations: [
              { key: "on", value: "true" },
              { key: "on", value: false }
            ]
          }),
          400,
          "invalid_request"
        ) as unknown as { error: { details: Array<{ path: string }> } }
        const paths = body.error.details.map((d) => d.path)
        expect(paths).toContain("variations[0].value")
        expect(paths.some((p) => p.startsWith("variations[1]"))).toBe(true)
      })
      it("400 when fields are missing or of the wrong type (all listed), or unknown", async () => {
        const missing = expectError("flag.missingFields", await call("POST", "/v1/projects/p1/flags", { name: 3 }), 400, "invalid_request") as unknown as {
          error: { details: Array<{ path: string }> }
        }
        expect(missing.error.details.map((d) => d.path).sort()).toEqual(["key", "name", "type", "variations"])
        const unknown = expectError(
          "flag.unknownField",
          await call("POST", "/v1/projects/p1/flags", { ...flag("typo"), descripton: "typo" }),
          400,
          "invalid_request"
        ) as unknown as { error: { details: Array<{ path: string }> } }
        expect(unknown.error.details.map((d) => d.path)).toEqual(["descripton"])
      })
      it("409 on a duplicate key and on removing a variation still in use; 404 for an unknown project", async () => {
        await call("POST", "/v1/projects/p1/flags", flag("dup"))
        expectError("flag.duplicate", await call("POST", "/v1/projects/p1/flags", flag("dup")), 409, "conflict")
        expectError(
          "flag.variationInUse",
          await call("PATCH", "/v1/projects/p1/flags/dup", { variations: [{ key: "A", value: "a" }, { key: "B", value: "b" }] }),
          409,
          "conflict"
        )
        expectError("flag.unknownProject", await call("POST", "/v1/projects/nope/flags", flag("x")), 404, "not_found")
      })
      it("unknown fields are rejected at any depth, each with its path", async () => {
        await call("POST", "/v1/projects/p1/flags", flag("nested"))
        const body = expectError(
          "targeting.unknownNestedFields",
          await call("PUT", "/v1/projects/p1/flags/nested/targeting", {
            environment: "production",
            enabled: true,
            defaultVariationKey: "A",
            offVariationKey: "C",
            rules: [{ conditions: [{ attribute: "x", operator: "in", values: [], typo: 1 }], variationKey: "A", extra: 2 }]
          }),
          400,
          "invalid_request"
        ) as unknown as { error: { details: Array<{ path: string }> } }
        expect(body.error.details.map((d) => d.path)).toEqual(["rules[0].extra", "rules[0].conditions[0].typo"])
      })
      it("PUT targeting replaces one environment's configuration; unknown variations are 400", async () => {
        await call("POST", "/v1/projects/p1/flags", flag("targeted"))
        const put = await call("PUT", "/v1/projects/p1/flags/targeted/targeting", {
          environment: "production",
          enabled: true,
          defaultVariationKey: "B",
          offVariationKey: "C",
          rules: [{ conditions: [{ attribute: "country", operator: "in", values: ["US"] }], variationKey: "A" }]
        })
        expect(put.status).toBe(200)
        const production = (put.body as { configs: Array<{ environmentKey: string; rules: Array<{ id: string }> }> }).configs.find(
          (c) => c.environmentKey === "production"
        )!
        expect(production).toMatchObject({ enabled: true, defaultVariationKey: "B" })
        expect(typeof production.rules[0].id).toBe("string")
        expectError(
          "targeting.unknownVariation",
          await call("PUT", "/v1/projects/p1/flags/targeted/targeting", {
            environment: "production",
            enabled: true,
            defaultVariationKey: "Z",
            offVariationKey: "C",
            rules: [{ conditions: [], rollout: { variations: [{ variationKey: "A", weight: 10 }] } }]
          }),
          400,
          "invalid_request"
        )
        expectError(
          "targeting.unknownEnvironment",
          await call("PUT", "/v1/projects/p1/flags/targeted/targeting", {
            environment: "nowhere",
            enabled: true,
            defaultVariationKey: "A",
            offVariationKey: "C",
            rules: []
          }),
          404,
          "not_found"
        )
      })
    })

    describe("optimistic concurrency", () => {
      const etagOf = (reply: Reply) => reply.headers.get("etag")
      const ifMatch = (etag: string) => ({ headers: { "if-match": etag } })

      it("flag responses carry ETag \"<version>\"; a write with the current one succeeds, a stale one is 412 and changes nothing", async () => {
        const created = await call("POST", "/v1/projects/p1/flags", flag("versioned"))
        expect(etagOf(created)).toBe('"1"')
        expect(etagOf(await call("GET", "/v1/projects/p1/flags/versioned"))).toBe('"1"')
        const patched = await call("PATCH", "/v1/projects/p1/flags/versioned", { name: "Mine" }, ifMatch('"1"'))
        expect(patched.status).toBe(200)
        expect(etagOf(patched)).toBe('"2"')
        const body = { environment: "production", enabled: true, defaultVariationKey: "A", offVariationKey: "C", rules: [] }
        const put = await call("PUT", "/v1/projects/p1/flags/versioned/targeting", body, ifMatch('"2"'))
        expect(put.status).toBe(200)
        expect(etagOf(put)).toBe('"3"')
        const stale = expectError("flag.staleIfMatch", await call("PATCH", "/v1/projects/p1/flags/versioned", { name: "Theirs" }, ifMatch('"2"')), 412, "precondition_failed") as unknown as {
          error: { details: Array<{ path: string; message: string }> }
        }
        expect(stale.error.details).toEqual([{ path: "If-Match", message: 'the current version is "3"' }])
        expectError("targeting.staleIfMatch", await call("PUT", "/v1/projects/p1/flags/versioned/targeting", { ...body, enabled: false }, ifMatch('"1"')), 412, "precondition_failed")
        expectError("flag.deleteStaleIfMatch", await call("DELETE", "/v1/projects/p1/flags/versioned", undefined, ifMatch('"2"')), 412, "precondition_failed")
        const now = await call("GET", "/v1/projects/p1/flags/versioned")
        expect(now.body).toEqual(put.body)
        // "*" names any current version; without If-Match the last writer wins.
        expect((await call("PATCH", "/v1/projects/p1/flags/versioned", { name: "Any" }, ifMatch("*"))).status).toBe(200)
        expect((await call("PATCH", "/v1/projects/p1/flags/versioned", { name: "Last" })).status).toBe(200)
        expect((await call("DELETE", "/v1/projects/p1/flags/versioned", undefined, ifMatch('"5"'))).status).toBe(204)
      })

      it("a malformed If-Match is 400, and a weak tag never matches", async () => {
        await call("POST", "/v1/projects/p1/flags", flag("badly-matched"))
        for (const header of ["1", 'W/"1"', '"one"', '"1", "2"']) {
          const reply = await call("PATCH", "/v1/projects/p1/flags/badly-matched", { name: "x" }, ifMatch(header))
          expect(reply.status, header).toBe(400)
        }
        expectError("flag.malformedIfMatch", await call("PATCH", "/v1/projects/p1/flags/badly-matched", { name: "x" }, ifMatch("1")), 400, "invalid_request")
        expect(((await call("GET", "/v1/projects/p1/flags/badly-matched")).body as { version: number }).version).toBe(1)
      })

      it("many concurrent writers with the same If-Match: exactly one succeeds, the others get 412", async () => {
        await call("POST", "/v1/projects/p1/flags", flag("contended"))
        const writers = 20
        const replies = await Promise.all(
          Array.from({ length: writers }, (_, i) =>
            i % 2 === 0
              ? call("PATCH", "/v1/projects/p1/flags/contended", { name: `writer ${i}` }, ifMatch('"1"'))
              : call("PUT", "/v1/projects/p1/flags/contended/targeting", {
                environment: "development",
                enabled: true,
                defaultVariationKey: i % 3 === 0 ? "A" : "B",
                offVariationKey: "C",
                rules: []
              }, ifMatch('"1"'))
          )
        )
        expect(replies.filter((r) => r.status === 200).length).toBe(1)
        expect(replies.filter((r) => r.status === 412).length).toBe(writers - 1)
        const winner = replies.find((r) => r.status === 200)!
        expect((await call("GET", "/v1/projects/p1/flags/contended")).body).toEqual(winner.body)
      })
    })

    describe("environment copy", () => {
      it("copies staging's configuration to production in one call; only changed flags are listed", async () => {
        expect((await call("POST", "/v1/projects/p2/environments", { key: "qa", name: "QA" })).status).toBe(201)
        for (const key of ["copy-a", "copy-b"]) await call("POST", "/v1/projects/p2/flags", flag(key))
        const targeting = { environment: "qa", enabled: true, defaultVariationKey: "B", offVariationKey: "C", rules: [{ id: "us", conditions: [{ attribute: "country", operator: "in", values: ["US"] }], variationKey: "A" }] }
        await call("PUT", "/v1/projects/p2/flags/copy-a/targeting", targeting)
        const copied = await call("POST", "/v1/projects/p2/environments/production/copy", { from: "qa", flags: ["copy-a", "copy-b"] })
        expect(copied.status).toBe(200)
        expect(copied.body).toEqual({ data: ["copy-a"] })
        const a = (await call("GET", "/v1/projects/p2/flags/copy-a")).body as { version: number; configs: Array<Record<string, unknown>> }
        expect(a.configs.find((c) => c.environmentKey === "production")).toEqual({ ...targeting, environment: undefined, environmentKey: "production", prerequisites: [], lastEvaluatedAt: null })
        expect(a.version).toBe(3)
        expectError("copy.staleIfMatch", await call("POST", "/v1/projects/p2/environments/production/copy", { from: "qa", flags: ["copy-a"] }, { headers: { "if-match": '"2"' } }), 412, "precondition_failed")
        expectError("copy.ifMatchWithoutOneFlag", await call("POST", "/v1/projects/p2/environments/production/copy", { from: "qa" }, { headers: { "if-match": '"3"' } }), 400, "invalid_request")
      })
      it("400 for copying onto itself or a bad body; 404 for an unknown environment or flag", async () => {
        expectError("copy.ontoItself", await call("POST", "/v1/projects/p2/environments/production/copy", { from: "production" }), 400, "invalid_request")
        expectError("copy.invalidBody", await call("POST", "/v1/projects/p2/environments/production/copy", { flags: "all" }), 400, "invalid_request")
        expectError("copy.unknownEnvironment", await call("POST", "/v1/projects/p2/environments/nowhere/copy", { from: "production" }), 404, "not_found")
        expectError("copy.unknownFlag", await call("POST", "/v1/projects/p2/environments/production/copy", { from: "development", flags: ["ghost"] }), 404, "not_found")
      })
    })

    describe("segments", () => {
      const segment = { key: "beta", name: "Beta testers", conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }] }
      it("creates (201), lists (200), reads, patches and deletes (204)", async () => {
        const created = await call("POST", "/v1/projects/p1/segments", segment)
        expect(created.status).toBe(201)
        expect(created.body).toMatchObject({ projectId: "p1", key: "beta", description: null })
        const list = await call("GET", "/v1/projects/p1/segments")
        expect(list.status).toBe(200)
        expect((list.body as { data: Array<{ key: string }> }).data.map((s) => s.key)).toContain("beta")
        expect((await call("GET", "/v1/projects/p1/segments/beta")).body).toMatchObject({ name: "Beta testers" })
        expect((await call("PATCH", "/v1/projects/p1/segments/beta", { name: "Beta" })).body).toMatchObject({ name: "Beta" })
        await call("POST", "/v1/projects/p1/segments", { ...segment, key: "gone" })
        expect((await call("DELETE", "/v1/projects/p1/segments/gone")).status).toBe(204)
        expectError("segment.unknown", await call("GET", "/v1/projects/p1/segments/gone"), 404, "not_found")
      })
      it("400 for limits and segment references, 409 for duplicates and segments in use", async () => {
        expectError(
          "segment.limits",
          await call("POST", "/v1/projects/p1/segments", { key: "long", name: "x".repeat(121), description: "d".repeat(501), conditions: [] }),
          400,
          "invalid_request"
        )
        expectError(
          "segment.referencesSegment",
          await call("POST", "/v1/projects/p1/segments", { key: "nested", name: "N", conditions: [{ operator: "inSegment", values: ["beta"] }] }),
          400,
          "invalid_request"
        )
        expectError("segment.duplicate", await call("POST", "/v1/projects/p1/segments", segment), 409, "conflict")
        await call("POST", "/v1/projects/p1/flags", flag("uses-beta"))
        expect(
          (
            await call("PUT", "/v1/projects/p1/flags/uses-beta/targeting", {
              environment: "development",
              enabled: true,
              defaultVariationKey: "A",
              offVariationKey: "C",
              rules: [{ conditions: [{ operator: "inSegment", values: ["beta"] }], variationKey: "B" }]
            })
          ).status
        ).toBe(200)
        expectError("segment.inUse", await call("DELETE", "/v1/projects/p1/segments/beta"), 409, "conflict")
      })
    })

    describe("webhooks", () => {
      it("creates, lists, reads, patches, lists deliveries and deletes; the secret never comes back", async () => {
        const created = await call("POST", "/v1/projects/p1/webhooks", {
          url: "https://hooks.example.com/flagport",
          events: ["flag.created", "flag.updated"],
          secret: "s3cret-value"
        })
        expect(created.status).toBe(201)
        expect(created.body).toMatchObject({ projectId: "p1", enabled: true, hasSecret: true })
        expect(created.text).not.toContain("s3cret-value")
        const id = (created.body as { id: string }).id
        expect(((await call("GET", "/v1/projects/p1/webhooks")).body as { data: Array<{ id: string }> }).data.map((w) => w.id)).toContain(id)
        expect((await call("GET", `/v1/projects/p1/webhooks/${id}`)).body).toMatchObject({ id })
        expect((await call("PATCH", `/v1/projects/p1/webhooks/${id}`, { enabled: false })).body).toMatchObject({ enabled: false })
        const deliveries = await call("GET", `/v1/projects/p1/webhooks/${id}/deliveries`)
        expect(deliveries.status).toBe(200)
        expect(Array.isArray((deliveries.body as { data: unknown }).data)).toBe(true)
        expectError("webhook.redeliverUnknown", await call("POST", `/v1/projects/p1/webhooks/${id}/deliveries/nope/redeliver`), 404, "not_found")
        expect((await call("DELETE", `/v1/projects/p1/webhooks/${id}`)).status).toBe(204)
        expectError("webhook.unknown", await call("GET", `/v1/projects/p1/webhooks/${id}`), 404, "not_found")
      })
      it("400 for no events, a short secret or a bad URL; not_found for an unknown project", async () => {
        expectError(
          "webhook.invalid",
          await call("POST", "/v1/projects/p1/webhooks", { url: "ftp://x", events: [], secret: "short" }),
          400,
          "invalid_request"
        )
        expectError("webhook.unknownEvent", await call("POST", "/v1/projects/p1/webhooks", { url: "https://x.example.com", events: ["flag.exploded"] }), 400, "invalid_request")
        expectError("webhooks.unknownProject", await call("GET", "/v1/projects/nope/webhooks"), 404, "not_found")
      })
    })

    describe("keys", () => {
      type KeyRecord = { id: string; type: string; projectId: string | null; name: string; prefix: string; revokedAt: string | null; key?: string }
      const keysOf = async (projectId: string, key = t.keys.global) =>
        ((await call("GET", `/v1/projects/${projectId}/keys`, undefined, { key })).body as { data: Array<KeyRecord> }).data

      it("creates a key shown once, lists the project's keys without secrets, and revokes one", async () => {
        const created = await call("POST", "/v1/projects/p2/keys", { type: "client", name: "Mobile app" })
        expect(created.status).toBe(201)
        const made = created.body as KeyRecord
        expect(made).toMatchObject({ type: "client", projectId: "p2", name: "Mobile app", revokedAt: null, lastUsedAt: null })
        expect(made.key).toMatch(/^cli_[A-Za-z0-9_-]{43}$/)
        expect(made.prefix).toBe(made.key!.slice(0, 8))
        // The new key works at once.
        expect((await request(t.url, "GET", "/v1/config?environment=development", { key: made.key! })).status).toBe(200)

        const listed = await call("GET", "/v1/projects/p2/keys")
        expect(listed.status).toBe(200)
        expect(listed.text).not.toContain(made.key!)
        const records = (listed.body as { data: Array<KeyRecord> }).data
        expect(records.every((k) => k.projectId === "p2" && k.key === undefined)).toBe(true)
        expect(records.find((k) => k.id === made.id)).toMatchObject({ name: "Mobile app", revokedAt: null })

        expect((await call("DELETE", `/v1/projects/p2/keys/${made.id}`)).status).toBe(204)
        const revoked = (await keysOf("p2")).find((k) => k.id === made.id)!
        expect(typeof revoked.revokedAt).toBe("string")
        expectError("key.revokedInUse", await request(t.url, "GET", "/v1/config?environment=development", { key: made.key! }), 401, "unauthorized")
        // Revoking again keeps the first time.
        expect((await call("DELETE", `/v1/projects/p2/keys/${made.id}`)).status).toBe(204)
        expect((await keysOf("p2")).find((k) => k.id === made.id)!.revokedAt).toBe(revoked.revokedAt)
      })

      it("a project-scoped key manages only its own project's keys; global keys are not listed or revocable here", async () => {
        const mine = (await request(t.url, "POST", "/v1/projects/p1/keys", { key: t.keys.scoped, body: { type: "server", name: "CI" } })).body as KeyRecord
        expect(mine.projectId).toBe("p1")
        expectError("key.otherProject", await request(t.url, "GET", "/v1/projects/p2/keys", { key: t.keys.scoped }), 403, "forbidden")
        // A key of p1 is not found under p2, and a global key under no project.
        expectError("key.unknownInProject", await call("DELETE", `/v1/projects/p2/keys/${mine.id}`), 404, "not_found")
        const globalIds = (await call("GET", "/v1/projects/p1/keys")).body as { data: Array<KeyRecord> }
        expect(globalIds.data.every((k) => k.projectId === "p1")).toBe(true)
        expect((await request(t.url, "DELETE", `/v1/projects/p1/keys/${mine.id}`, { key: t.keys.scoped })).status).toBe(204)
      })

      it("binds a key to one environment of the project; 404 for an environment the project lacks", async () => {
        const bound = (await call("POST", "/v1/projects/p1/keys", { type: "client", name: "Web", environment: "production" })).body as KeyRecord & { environment: string | null }
        expect(bound.environment).toBe("production")
        expect((await keysOf("p1")).find((k) => k.id === bound.id)).toMatchObject({ environment: "production" })
        const other = await request(t.url, "GET", "/v1/config?environment=development", { key: bound.key! })
        expect(other.status).toBe(403)
        expect((await request(t.url, "GET", "/v1/config", { key: bound.key! })).status).toBe(200)
        const unbound = (await call("POST", "/v1/projects/p1/keys", { type: "client", name: "Any", environment: null })).body as KeyRecord & { environment: string | null }
        expect(unbound.environment).toBeNull()
        expectError("key.unknownEnvironment", await call("POST", "/v1/projects/p1/keys", { type: "client", name: "x", environment: "nope" }), 404, "not_found")
      })

      it("a key cannot revoke itself (409) and stays usable", async () => {
        const self = (await call("POST", "/v1/projects/p1/keys", { type: "server", name: "self" })).body as KeyRecord
        expectError("key.revokeSelf", await request(t.url, "DELETE", `/v1/projects/p1/keys/${self.id}`, { key: self.key! }), 409, "conflict")
        expect((await request(t.url, "GET", "/v1/projects/p1/keys", { key: self.key! })).status).toBe(200)
      })

      it("400 for a bad type, a missing or long name, or an unknown field; 404 for an unknown project or key", async () => {
        const bad = expectError(
          "key.invalid",
          await call("POST", "/v1/projects/p1/keys", { type: "admin", name: "x".repeat(121), projectId: null }),
          400,
          "invalid_request"
        ) as unknown as { error: { details: Array<{ path: string }> } }
        expect(bad.error.details.map((d) => d.path).sort()).toEqual(["name", "projectId", "type"])
        expectError("key.missingName", await call("POST", "/v1/projects/p1/keys", { type: "server" }), 400, "invalid_request")
        expectError("key.unknownProject", await call("POST", "/v1/projects/nope/keys", { type: "server", name: "x" }), 404, "not_found")
        expectError("keys.unknownProject", await call("GET", "/v1/projects/nope/keys"), 404, "not_found")
        expectError("key.unknown", await call("DELETE", "/v1/projects/p1/keys/no-such-key"), 404, "not_found")
      })
    })

    describe("evaluation", () => {
      beforeAll(async () => {
        await call("POST", "/v1/projects/p1/flags", flag("eval-flag"))
        await call("POST", "/v1/projects/p1/flags", { key: "eval-bool", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
        await call("PUT", "/v1/projects/p1/flags/eval-flag/targeting", {
          environment: "development",
          enabled: true,
          defaultVariationKey: "C",
          offVariationKey: "C",
          rules: [
            { id: "by-plan", conditions: [{ attribute: "plan", operator: "in", values: ["pro"] }, { attribute: "seats", operator: "gte", values: [10] }], variationKey: "A" }
          ]
        })
      })
      const client = () => ({ key: t.keys.client })

      it("POST /v1/evaluate answers every flag of the environment", async () => {
        const reply = await request(t.url, "POST", "/v1/evaluate", {
          ...client(),
          body: { environment: "development", context: { key: "u1", attributes: { plan: "pro", seats: 12, country: "US", beta: true } } }
        })
        expect(reply.status).toBe(200)
        const body = reply.body as { environment: string; flags: Record<string, unknown> }
        expect(body.environment).toBe("development")
        expect(body.flags["eval-flag"]).toEqual({ flagKey: "eval-flag", value: "a", variationKey: "A", reason: { kind: "RULE_MATCH", ruleId: "by-plan", ruleIndex: 0 } })
        expect(body.flags["eval-bool"]).toEqual({ flagKey: "eval-bool", value: false, variationKey: "off", reason: { kind: "OFF" } })
      })
      it("POST /v1/evaluate: 404 unknown environment, 400 empty context key, 400 unknown field", async () => {
        expectError("evaluate.unknownEnvironment", await request(t.url, "POST", "/v1/evaluate", { ...client(), body: { environment: "nowhere", context: { key: "u" } } }), 404, "not_found")
        const empty = expectError("evaluate.emptyKey", await request(t.url, "POST", "/v1/evaluate", { ...client(), body: { environment: "development", context: { key: "" } } }), 400, "invalid_request") as unknown as { error: { details: Array<{ path: string }> } }
        expect(empty.error.details.map((d) => d.path)).toEqual(["context.key"])
        expectError("evaluate.missingContext", await request(t.url, "POST", "/v1/evaluate", { ...client(), body: { environment: "development" } }), 400, "invalid_request")
        expectError("evaluate.unknownField", await request(t.url, "POST", "/v1/evaluate", { ...client(), body: { environment: "development", context: { key: "u" }, extra: 1 } }), 400, "invalid_request")
      })
      it("GET /v1/flags/{flagKey}/eval with typed attributes as URL-encoded JSON", async () => {
        const attributes = encodeURIComponent(JSON.stringify({ plan: "pro", seats: 10 }))
        const reply = await request(t.url, "GET", `/v1/flags/eval-flag/eval?environment=development&key=u1&attributes=${attributes}`, client())
        expect(reply.body).toEqual({ flagKey: "eval-flag", value: "a", variationKey: "A", reason: { kind: "RULE_MATCH", ruleId: "by-plan", ruleIndex: 0 } })
        const stringly = encodeURIComponent(JSON.stringify({ plan: "pro", seats: "10" }))
        const fallthrough = await request(t.url, "GET", `/v1/flags/eval-flag/eval?environment=development&key=u1&attributes=${stringly}`, client())
        expect(fallthrough.body).toEqual({ flagKey: "eval-flag", value: "c", variationKey: "C", reason: { kind: "FALLTHROUGH" } })
      })
      it("GET /v1/flags/{flagKey}/eval: 404 unknown flag, 400 missing key / bad attributes", async () => {
        expectError("flagEval.unknownFlag", await request(t.url, "GET", "/v1/flags/nope/eval?environment=development&key=u", client()), 404, "not_found")
        expectError("flagEval.missingKey", await request(t.url, "GET", "/v1/flags/eval-flag/eval?environment=development", client()), 400, "invalid_request")
        expectError("flagEval.badAttributes", await request(t.url, "GET", "/v1/flags/eval-flag/eval?environment=development&key=u&attributes=%7Bnope", client()), 400, "invalid_request")
        expectError("flagEval.unknownEnvironment", await request(t.url, "GET", "/v1/flags/eval-flag/eval?environment=nowhere&key=u", client()), 404, "not_found")
        // A repeated parameter is refused, as on the HttpApi routes, instead of one value winning.
        const repeated = expectError(
          "flagEval.repeatedParameter",
          await request(t.url, "GET", "/v1/flags/eval-flag/eval?environment=development&environment=production&key=u", client()),
          400,
          "invalid_request"
        ) as unknown as { error: { details: Array<{ path: string }> } }
        expect(repeated.error.details.map((d) => d.path)).toContain("environment")
        // Parameters named like Object.prototype members are ordinary (ignored) parameters.
        for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
          const config = await request(t.url, "GET", `/v1/config?environment=development&${name}=1&${name}=2`, client())
          expect(config.status, config.text).toBe(200)
          const evaluated = await request(t.url, "GET", `/v1/flags/eval-flag/eval?environment=development&key=u&${name}=x`, client())
          expect(evaluated.status, evaluated.text).toBe(200)
        }
        expectError("config.repeatedParameter", await request(t.url, "GET", "/v1/config?environment=development&environment=development", client()), 400, "invalid_request")
      })
      it("GET /v1/config: the snapshot with an ETag; 304 on If-None-Match; gzip when accepted", async () => {
        const first = await request(t.url, "GET", "/v1/config?environment=development", client())
        expect(first.status).toBe(200)
        const etag = first.headers.get("etag")!
        expect(etag).toMatch(/^W\/".+"$/)
        const body = first.body as { environment: string; flags: Array<{ key: string }>; segments: unknown[] }
        expect(body.environment).toBe("development")
        expect(body.flags.map((f) => f.key)).toEqual(expect.arrayContaining(["eval-flag", "eval-bool"]))
        const again = await request(t.url, "GET", "/v1/config?environment=development", { ...client(), headers: { "if-none-match": etag } })
        expect(again.status).toBe(304)
        expect(again.text).toBe("")
        const gz = await rawGet(`/v1/config?environment=development`, { authorization: `Bearer ${t.keys.client}`, "accept-encoding": "gzip" })
        expect(gz.headers["content-encoding"]).toBe("gzip")
        expect(JSON.parse(gunzipSync(gz.body).toString("utf8"))).toEqual(body)
        // Each flag carries the version its environment serves. A metadata-only change (a rename)
        // grows the flag's version but changes nothing served: the snapshot and its ETag stay as
        // they were. A targeting change serves the flag's new version.
        const versionOf = (config: unknown) => (config as { flags: Array<{ key: string; version: number }> }).flags.find((f) => f.key === "eval-bool")!.version
        const renamed = await call("PATCH", "/v1/projects/p1/flags/eval-bool", { name: "Changed" })
        expect(renamed.status).toBe(200)
        const flagVersion = (renamed.body as { version: number }).version
        const afterRename = await request(t.url, "GET", "/v1/config?environment=development", { ...client(), headers: { "if-none-match": etag } })
        expect(afterRename.status).toBe(304)
        expect((await request(t.url, "GET", "/v1/config?environment=development", client())).body).toEqual(body)
        expect(versionOf(body)).toBeLessThan(flagVersion)
        await call("PUT", "/v1/projects/p1/flags/eval-bool/targeting", { environment: "development", enabled: false, defaultVariationKey: "off", offVariationKey: "off", rules: [] })
        const changed = await request(t.url, "GET", "/v1/config?environment=development", { ...client(), headers: { "if-none-match": etag } })
        expect(changed.status).toBe(200)
        expect(changed.headers.get("etag")).not.toBe(etag)
        expect(versionOf(changed.body)).toBe(flagVersion + 1)
      })
      it("a write is served by the next evaluation of this process", async () => {
        await call("PUT", "/v1/projects/p1/flags/eval-bool/targeting", { environment: "development", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
        const reply = await request(t.url, "GET", "/v1/flags/eval-bool/eval?environment=development&key=u", client())
        expect(reply.body).toMatchObject({ value: true, reason: { kind: "FALLTHROUGH" } })
      })
    })

    describe("transport errors", () => {
      it("malformed JSON is 400 on both lanes", async () => {
        expectError("malformedJson.management", await call("POST", "/v1/projects/p1/flags", "{not json"), 400, "invalid_request")
        expectError("malformedJson.evaluate", await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: "{not json" }), 400, "invalid_request")
      })
      it("a body without application/json is 415 on both lanes", async () => {
        const headers = { "content-type": "text/plain" }
        expectError("unsupportedMediaType.management", await call("POST", "/v1/projects/p1/flags", "x", { headers }), 415, "unsupported_media_type")
        expectError("unsupportedMediaType.evaluate", await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: "x", headers }), 415, "unsupported_media_type")
      })
      it("only application/json (with or without parameters) is JSON, on both lanes", async () => {
        for (const type of ["application/jsonx", "application/json-patch+json", "text/plain; x=application/json"]) {
          const headers = { "content-type": type }
          const management = await call("POST", "/v1/projects/p1/flags", flag("typed"), { headers })
          expect(management.status, type).toBe(415)
          const evaluate = await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: { environment: "development", context: { key: "u" } }, headers })
          expect(evaluate.status, type).toBe(415)
        }
        expectError("unsupportedMediaType.jsonLookalike", await call("POST", "/v1/projects/p1/flags", flag("typed"), { headers: { "content-type": "application/jsonx" } }), 415, "unsupported_media_type")
        const headers = { "content-type": "Application/JSON; charset=utf-8" }
        expect((await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: { environment: "development", context: { key: "u" } }, headers })).status).toBe(200)
      })
      it("JSON nested deeper than 64 levels is 400 on both lanes (it overflowed the stack: 500)", async () => {
        const deep = (depth: number): unknown => {
          let value: unknown = "x"
          for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { v: value }
          return value
        }
        const flagWith = (depth: number) => ({ key: `deep-${depth}`, type: "json", variations: [{ key: "a", value: deep(depth) }] })
        expectError("nestedTooDeeply.management", await call("POST", "/v1/projects/p1/flags", flagWith(3000)), 400, "invalid_request")
        expectError("nestedTooDeeply.management.invalid", await call("POST", "/v1/projects/p1/flags", { ...flagWith(3000), type: "nope" }), 400, "invalid_request")
        const evaluate = (depth: number) => request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: { environment: "development", context: { key: "u", attributes: { a: deep(depth) } } } })
        expectError("nestedTooDeeply.evaluate", await evaluate(3000), 400, "invalid_request")
        const bad = await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: { environment: 5, context: deep(3000) } })
        expect(bad.status).toBe(400)
        const attributes = encodeURIComponent(`{"a":${"[".repeat(1000)}${"]".repeat(1000)}}`) // a URL of 6 KB: under node's 16 KB
        expect((await request(t.url, "GET", `/v1/flags/x/eval?environment=development&key=u&attributes=${attributes}`, { key: t.keys.client })).status).toBe(400)
        // Within the limit (the attributes object and the flag body add their own levels).
        expect((await call("POST", "/v1/projects/p1/flags", flagWith(60))).status).toBe(201)
        // An evaluation context has its own, lower nesting limit (checked after the body is parsed).
        expect((await evaluate(8)).status).toBe(200)
        expect((await evaluate(60)).status).toBe(400)
        expect((await call("POST", "/v1/projects/p1/flags", { ...flagWith(60), key: "brackets", variations: [{ key: "a", value: "[[[[{{{{".repeat(100) }] })).status).toBe(201)
      })
      it("a body over 1 MiB is 413 on both lanes", async () => {
        const big = JSON.stringify({ key: "big", type: "string", variations: [{ key: "a", value: "x".repeat(1024 * 1024) }] })
        expectError("payloadTooLarge.management", await call("POST", "/v1/projects/p1/flags", big), 413, "payload_too_large")
        expectError("payloadTooLarge.evaluate", await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: big }), 413, "payload_too_large")
      })
      it("unknown routes and methods are 404 envelopes", async () => {
        expectError("unknownRoute", await call("GET", "/v1/nothing-here"), 404, "not_found")
        expectError("unknownMethod", await call("PUT", "/v1/evaluate", { x: 1 }), 404, "not_found")
      })
    })

    describe("U+0000 (PostgreSQL cannot store it): 400 on every backend, nothing stored", () => {
      const NUL = "\u0000"
      const expectNul = (reply: Reply, path: string) => {
        expect(reply.status, reply.text).toBe(400)
        const details = (reply.body as { error: { details?: Array<{ path: string; message: string }> } }).error.details ?? []
        expect(details, reply.text).toContainEqual({ path, message: "must not contain the NUL character (U+0000)" })
      }
      it("in names, descriptions, webhook URLs and secrets", async () => {
        expectNul(await call("POST", "/v1/projects", { id: "nul", name: `a${NUL}b` }), "name")
        expectNul(await call("POST", "/v1/projects/p1/environments", { key: "nul", name: `a${NUL}` }), "name")
        expectNul(await call("POST", "/v1/projects/p1/flags", flag("nul-flag", { name: `a${NUL}` })), "name")
        expectNul(await call("POST", "/v1/projects/p1/flags", flag("nul-flag", { description: NUL })), "description")
        expectNul(await call("POST", "/v1/projects/p1/segments", { key: "nul-seg", name: `s${NUL}`, conditions: [] }), "name")
        expectNul(await call("POST", "/v1/projects/p1/segments", { key: "nul-seg", name: "s", description: NUL, conditions: [] }), "description")
        expectNul(await call("POST", "/v1/projects/p1/webhooks", { url: `https://example.com/${NUL}`, events: ["flag.created"] }), "url")
        expectNul(await call("POST", "/v1/projects/p1/webhooks", { url: "https://example.com/", events: ["flag.created"], secret: `secret${NUL}secret` }), "secret")
        expectError("nul.name", await call("POST", "/v1/projects/p1/flags", flag("nul-flag", { name: `a${NUL}` })), 400, "invalid_request")
        expect((await call("GET", "/v1/projects/p1/flags/nul-flag")).status).toBe(404)
        expect((await call("GET", "/v1/projects")).text).not.toContain('"nul"')
      })
      it("in path parameters and evaluation requests", async () => {
        expectNul(await call("GET", "/v1/projects/p1/flags/base%00"), "flagKey")
        expectNul(await call("DELETE", "/v1/projects/p1/segments/base%00"), "segmentKey")
        expectNul(await call("GET", "/v1/projects/p%00/flags"), "projectId")
        expectError("nul.path", await call("GET", "/v1/projects/p1/flags/base%00"), 400, "invalid_request")
        expectNul(await request(t.url, "POST", "/v1/evaluate", { key: t.keys.global, body: { environment: `development${NUL}`, projectId: "p1", context: { key: "u" } } }), "environment")
        expectNul(await request(t.url, "POST", "/v1/evaluate", { key: t.keys.global, body: { environment: "development", projectId: `p1${NUL}`, context: { key: "u" } } }), "projectId")
        expectNul(await request(t.url, "GET", "/v1/config?environment=development%00", { key: t.keys.client }), "environment")
        expectNul(await request(t.url, "GET", "/v1/flags/x/eval?environment=development&key=u&projectId=p1%00", { key: t.keys.global }), "projectId")
      })
    })

    describe("schedules", () => {
      it("create, list and cancel answer the contract's errors", async () => {
        expect((await call("POST", "/v1/projects/p1/flags", flag("scheduled"))).status).toBe(201)
        const path = "/v1/projects/p1/flags/scheduled/schedules"
        const targeting = { enabled: true, defaultVariationKey: "A", offVariationKey: "C", rules: [] }
        const at = "2999-01-01T09:00:00Z"
        expectError("schedule.invalidTargeting", await call("POST", path, { environment: "production", at, targeting: { ...targeting, defaultVariationKey: "Z" } }), 400, "invalid_request")
        expectError("schedule.badTime", await call("POST", path, { environment: "production", at: "next monday", targeting }), 400, "invalid_request")
        expectError("schedule.otherEnvironment", await call("POST", path, { environment: "production", at, targeting: { ...targeting, environment: "development" } }), 400, "invalid_request")
        expectError("schedule.unknownEnvironment", await call("POST", path, { environment: "staging", at, targeting }), 404, "not_found")
        expectError("schedule.unknownFlag", await call("POST", "/v1/projects/p1/flags/nope/schedules", { environment: "production", at, targeting }), 404, "not_found")
        const created = await call("POST", path, { environment: "production", at, targeting })
        expect(created.status).toBe(201)
        const id = (created.body as { id: string }).id
        expect(((await call("GET", path)).body as { data: ReadonlyArray<unknown> }).data).toEqual([created.body])
        expectError("schedule.cancelUnknown", await call("DELETE", `${path}/unknown`), 404, "not_found")
        expect((await call("DELETE", `${path}/${id}`)).status).toBe(204)
        expectError("schedule.cancelTwice", await call("DELETE", `${path}/${id}`), 409, "conflict")
      })
    })

    describe("streams", () => {
      it("GET /v1/stream answers the envelope when it does not open (a stream that opens never ends: see Stream.test.ts)", async () => {
        const stream = (query: string, key?: string) => request(t.url, "GET", `/v1/stream${query}`, key === undefined ? {} : { key })
        expectError("stream.noCredentials", await stream("?environment=development"), 401, "unauthorized")
        expectError("stream.invalidToken", await stream("?token=v1.forged.token"), 401, "unauthorized")
        expectError("stream.missingEnvironment", await stream("", t.keys.client), 400, "invalid_request")
        expectError("stream.unknownEnvironment", await stream("?environment=staging", t.keys.client), 404, "not_found")
        expectError("stream.otherEnvironment", await stream("?environment=development", t.keys.boundClientOther), 403, "forbidden")
      })
    })

    describe("insights", () => {
      const report = (extra: Record<string, unknown>) => ({
        environment: "development",
        from: "2026-11-23T14:00:00Z",
        to: "2026-11-23T14:01:00Z",
        counts: [],
        ...extra
      })
      it("refuses bad reports and bad series windows with the envelope", async () => {
        const client = { key: t.keys.client }
        expectError("insights.report.count", await call("POST", "/v1/insights", report({ counts: [{ flagKey: "f", variationKey: "a", count: 0 }] }), client), 400, "invalid_request")
        expectError("insights.report.instant", await call("POST", "/v1/insights", report({ from: "yesterday" }), client), 400, "invalid_request")
        expectError("insights.report.window", await call("POST", "/v1/insights", report({ from: "2026-11-23T15:00:00Z" }), client), 400, "invalid_request")
        expectError("insights.report.environment", await call("POST", "/v1/insights", report({ environment: "nowhere" }), client), 404, "not_found")
        expectError("insights.series.environment", await call("GET", "/v1/projects/p1/flags/nope/insights"), 400, "invalid_request")
        expectError("insights.series.flag", await call("GET", "/v1/projects/p1/flags/nope/insights?environment=development"), 404, "not_found")
        expectError("insights.series.window", await call("GET", "/v1/projects/p1/flags/nope/insights?environment=development&from=2026-01-01T00:00:00Z&to=2026-11-01T00:00:00Z"), 400, "invalid_request")
        expectError("insights.flags.status", await call("GET", "/v1/projects/p1/flags?status=fresh"), 400, "invalid_request")
      })
    })

    describe("audit log", () => {
      it("GET .../audit: 400 for a bad limit, cursor or resource type, 404 for an unknown project", async () => {
        expect((await call("GET", "/v1/projects/p1/audit?limit=1")).status).toBe(200)
        expectError("audit.limitOutOfRange", await call("GET", "/v1/projects/p1/audit?limit=0"), 400, "invalid_request")
        expectError("audit.limitNotANumber", await call("GET", "/v1/projects/p1/audit?limit=ten"), 400, "invalid_request")
        expectError("audit.unknownCursor", await call("GET", "/v1/projects/p1/audit?cursor=bm90LWEtY3Vyc29y"), 400, "invalid_request")
        expectError("audit.unknownResourceType", await call("GET", "/v1/projects/p1/audit?resourceType=planet"), 400, "invalid_request")
        expectError("audit.unknownProject", await call("GET", "/v1/projects/nope/audit"), 404, "not_found")
      })
    })

    describe("prerequisites and explain", () => {
      const booleanFlag = (key: string) => ({ key, name: key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
      const target = (key: string, body: Record<string, unknown>) =>
        call("PUT", `/v1/projects/p1/flags/${key}/targeting`, { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [], ...body })
      beforeAll(async () => {
        for (const key of ["pre-base", "pre-child"]) expect((await call("POST", "/v1/projects/p1/flags", booleanFlag(key))).status).toBe(201)
        await target("pre-base", { rules: [{ id: "pro", conditions: [{ attribute: "plan", operator: "in", values: ["pro"] }], variationKey: "on" }], defaultVariationKey: "off" })
        const child = await target("pre-child", { prerequisites: [{ flagKey: "pre-base", variationKey: "on" }] })
        expect(child.status, child.text).toBe(200)
      })
      it("PUT targeting stores prerequisites; GET /v1/config carries them", async () => {
        const flag = (await call("GET", "/v1/projects/p1/flags/pre-child")).body as { configs: Array<{ environmentKey: string; prerequisites: unknown }> }
        expect(flag.configs.find((c) => c.environmentKey === "production")!.prerequisites).toEqual([{ flagKey: "pre-base", variationKey: "on" }])
        const config = (await request(t.url, "GET", "/v1/config?environment=production", { key: t.keys.client })).body as { flags: Array<{ key: string; prerequisites: unknown }> }
        expect(config.flags.find((f) => f.key === "pre-child")!.prerequisites).toEqual([{ flagKey: "pre-base", variationKey: "on" }])
      })
      it("a cycle, an unknown flag or variation is 400; deleting a required flag is 409; nothing changes", async () => {
        const before = (await call("GET", "/v1/projects/p1/flags/pre-base")).body
        expectError("prerequisites.cycle", await target("pre-base", { prerequisites: [{ flagKey: "pre-child", variationKey: "on" }] }), 400, "invalid_request")
        expectError("prerequisites.unknown", await target("pre-child", { prerequisites: [{ flagKey: "pre-nope", variationKey: "on" }, { flagKey: "pre-base", variationKey: "maybe" }] }), 400, "invalid_request")
        expectError("prerequisites.deleteRequired", await call("DELETE", "/v1/projects/p1/flags/pre-base"), 409, "conflict")
        expect((await call("GET", "/v1/projects/p1/flags/pre-base")).body).toEqual(before)
      })
      it("POST /v1/explain answers the single-flag route's result and the trace, with a client key", async () => {
        for (const [plan, kind] of [["pro", "FALLTHROUGH"], ["free", "PREREQUISITE_FAILED"]] as const) {
          const context = { key: "user-1", attributes: { plan } }
          const explained = await request(t.url, "POST", "/v1/explain", { key: t.keys.client, body: { environment: "production", flagKey: "pre-child", context } })
          expect(explained.status, explained.text).toBe(200)
          const single = await request(t.url, "GET", `/v1/flags/pre-child/eval?environment=production&key=user-1&attributes=${encodeURIComponent(JSON.stringify({ plan }))}`, { key: t.keys.client })
          const body = explained.body as { result: { reason: { kind: string } }; trace: { prerequisites: Array<{ flagKey: string; met: boolean; trace: { rules: Array<{ conditions: Array<{ value: unknown }> }> } }> } }
          expect(body.result).toEqual(single.body)
          expect(body.result.reason.kind).toBe(kind)
          expect(body.trace.prerequisites[0]!.flagKey).toBe("pre-base")
          expect(body.trace.prerequisites[0]!.met).toBe(kind === "FALLTHROUGH")
          expect(body.trace.prerequisites[0]!.trace.rules[0]!.conditions[0]!.value).toBe(plan)
        }
      })
      it("POST /v1/explain: an unknown flag is 404, a bad body 400, as the evaluation routes", async () => {
        expectError("explain.unknownFlag", await request(t.url, "POST", "/v1/explain", { key: t.keys.client, body: { environment: "production", flagKey: "pre-nope", context: { key: "u" } } }), 404, "not_found")
        expectError("explain.badBody", await request(t.url, "POST", "/v1/explain", { key: t.keys.client, body: { environment: "production", context: { key: "u" }, extra: 1 } }), 400, "invalid_request")
      })
    })

    describe("golden error bodies", () => {
      it("match test/http/golden/error-bodies.json", async () => {
        // Runs last in this file: every error body recorded above must equal the golden one.
        const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as Record<string, unknown>
        expect(Object.keys(goldenBodies).length).toBeGreaterThan(30)
        if (process.env["UPDATE_GOLDEN"] !== "1") expect(goldenBodies).toEqual(golden)
      })
    })

    describe("the OpenAPI document", () => {
      it("declares every status answered above for its operation", async () => {
        // Runs after the error cases above; unknown routes and methods belong to no operation.
        const spec = (await send(t.url, "GET", "/openapi.json")).body as Parameters<typeof declaredStatuses>[0]
        const undeclared = new Set<string>()
        for (const { method, path, status } of answered) {
          const declared = declaredStatuses(spec, method, path)
          if (declared !== undefined && !declared.statuses.includes(String(status))) undeclared.add(`${declared.operation}: ${status}`)
        }
        expect(answered.length).toBeGreaterThan(100)
        expect([...undeclared]).toEqual([])
      })
    })

    const rawGet = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const req = httpRequest(`${t.url}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = []
          res.on("data", (c: Buffer) => chunks.push(c))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
        })
        req.on("error", reject)
        req.end()
      })
  })
}
