/** Scheduled changes of a flag's targeting: create, list, cancel, and the project's pending ones. */
import { describe, expect, it } from "@effect/vitest"
import { type Endpoints, flag } from "./harness.js"

export const schedules = ({ call, expectError }: Endpoints) =>
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
      expect(((await call("GET", "/v1/projects/p1/schedules?environment=production")).body as { data: ReadonlyArray<unknown> }).data).toEqual([created.body])
      expect(((await call("GET", "/v1/projects/p1/schedules?environment=development")).body as { data: ReadonlyArray<unknown> }).data).toEqual([])
      expectError("schedule.pendingUnknownProject", await call("GET", "/v1/projects/nope/schedules"), 404, "not_found")
      expectError("schedule.cancelUnknown", await call("DELETE", `${path}/unknown`), 404, "not_found")
      expect((await call("DELETE", `${path}/${id}`)).status).toBe(204)
      expectError("schedule.cancelTwice", await call("DELETE", `${path}/${id}`), 409, "conflict")
    })
  })
