/**
 * The evaluation lane's caches through a real server whose revision poll is slowed to a minute, so
 * only the write path's own invalidation can make an answer fresh: a write is served by the next
 * evaluation, a project created after a 404 at once, and over-long tokens get the exact 401.
 * (The caches alone, under hostile or racy input: Caches.test.ts.)
 */
import { describe, expect, it } from "@effect/vitest"
import { MAX_TOKEN_LENGTH } from "../../adapters/http/shared/KeyCache.js"
import { request, startServer } from "./fixtures.js"

describe("through the server (memory storage, revision poll set to one minute)", () => {
  it("write then evaluate at once; project creation after a 404; over-long tokens", async () => {
    const t = await startServer(undefined, { lane: { checkIntervalMs: 60_000 } })
    try {
      const call = (method: string, path: string, body?: unknown) =>
        request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
      const evaluate = (projectId: string, key = t.keys.global) =>
        request(t.url, "POST", "/v1/evaluate", { key, body: { environment: "development", projectId, context: { key: "u" } } })
      const flags = (reply: { body: unknown }) => (reply.body as { flags: Record<string, { value: unknown }> }).flags
      expect((await call("POST", "/v1/projects/p1/flags", { key: "fresh", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })).status).toBe(201)
      const target = (enabled: boolean) =>
        call("PUT", "/v1/projects/p1/flags/fresh/targeting", { environment: "development", enabled, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
      for (const enabled of [true, false, true, false]) {
        expect((await target(enabled)).status).toBe(200)
        const reply = await evaluate("p1")
        expect(reply.status).toBe(200)
        expect(flags(reply).fresh.value).toBe(enabled)
      }

      // A 404 for a project that does not exist yet, then its creation: served at once.
      expect((await evaluate("p7")).status).toBe(404)
      expect((await call("POST", "/v1/projects", { id: "p7", name: "Seven" })).status).toBe(201)
      expect((await call("POST", "/v1/projects/p7/environments", { key: "development", name: "Dev" })).status).toBe(201)
      const created = await evaluate("p7")
      expect(created.status).toBe(200)
      expect(flags(created)).toEqual({})

      // An unknown environment name sent by a client key: 404, and the lane keeps no entry for it.
      const unknownEnv = await request(t.url, "GET", `/v1/config?environment=${"n".repeat(120)}`, { key: t.keys.client })
      expect(unknownEnv.status).toBe(404)

      // Over-long tokens: the exact 401, with or without a key prefix.
      for (const token of [`srv_${"a".repeat(5_000)}`, `cli_${"b".repeat(MAX_TOKEN_LENGTH)}`]) {
        const reply = await request(t.url, "POST", "/v1/evaluate", { key: token, body: { environment: "development", context: { key: "u" } } })
        expect(reply.status).toBe(401)
        expect(reply.body).toEqual({ error: { code: "unauthorized", message: "Invalid API key." } })
        const management = await request(t.url, "GET", "/v1/projects", { key: token })
        expect(management.status).toBe(401)
        expect(management.body).toEqual({ error: { code: "unauthorized", message: "Invalid API key." } })
      }
    } finally {
      await t.close()
    }
  })
})
