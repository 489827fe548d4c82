/** Projects: list, create, and the contract's errors. */
import { describe, expect, it } from "@effect/vitest"
import { type Endpoints } from "./harness.js"

export const projects = ({ call, expectError }: Endpoints) =>
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
