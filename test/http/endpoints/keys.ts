/** API keys of a project: shown once, scoped, bound to an environment, revoked. */
import { describe, expect, it } from "@effect/vitest"
import { type Endpoints } from "./harness.js"

export const keys = ({ t, call, request, expectError }: Endpoints) =>
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
