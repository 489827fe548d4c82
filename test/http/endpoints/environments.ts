/** Environments, and copying one environment's configuration onto another. */
import { describe, expect, it } from "@effect/vitest"
import { type Endpoints, flag } from "./harness.js"

export const environments = ({ call, expectError }: Endpoints) =>
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
        // The flag's version after the new environment's configuration was added.
        version: 2,
        lastEvaluatedAt: null
      })
    })
    it("PATCH sets clientConfig and keeps the rest; 400 for an unknown field or value, 404 for an unknown environment", async () => {
      const patched = await call("PATCH", "/v1/projects/p2/environments/development", { clientConfig: "evaluated" })
      expect(patched.status).toBe(200)
      expect(patched.body).toMatchObject({ projectId: "p2", key: "development", name: "Development", clientConfig: "evaluated" })
      expect((await call("PATCH", "/v1/projects/p2/environments/development", {})).body).toMatchObject({ clientConfig: "evaluated" })
      expect((await call("PATCH", "/v1/projects/p2/environments/development", { clientConfig: "full" })).body).toMatchObject({ clientConfig: "full" })
      expectError("environments.patchUnknownValue", await call("PATCH", "/v1/projects/p2/environments/development", { clientConfig: "none" }), 400, "invalid_request")
      expectError("environments.patchUnknownField", await call("PATCH", "/v1/projects/p2/environments/development", { clientConfig: "full", locked: true }), 400, "invalid_request")
      expectError("environments.patchUnknownEnvironment", await call("PATCH", "/v1/projects/p2/environments/nowhere", { clientConfig: "full" }), 404, "not_found")
      expectError("environments.patchUnknownProject", await call("PATCH", "/v1/projects/nope/environments/development", { clientConfig: "full" }), 404, "not_found")
    })
    it("404 for an unknown project, 409 for a duplicate key", async () => {
      expectError("environments.unknownProject", await call("GET", "/v1/projects/nope/environments"), 404, "not_found")
      expectError("environments.duplicate", await call("POST", "/v1/projects/p1/environments", { key: "development", name: "Dev" }), 409, "conflict")
    })
  })

export const environmentCopy = ({ call, expectError }: Endpoints) =>
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
      expect(a.configs.find((c) => c.environmentKey === "production")).toEqual({ ...targeting, environment: undefined, environmentKey: "production", prerequisites: [], version: 3, lastEvaluatedAt: null })
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
