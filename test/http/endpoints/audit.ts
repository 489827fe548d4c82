/** The audit log's query parameters. */
import { describe, expect, it } from "@effect/vitest"
import { type Endpoints } from "./harness.js"

export const auditLog = ({ call, expectError }: Endpoints) =>
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
