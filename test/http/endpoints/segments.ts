/** Segments: the lifecycle, limits, references and segments in use. */
import { describe, expect, it } from "@effect/vitest"
import { type Endpoints, flag } from "./harness.js"

export const segments = ({ call, expectError }: Endpoints) =>
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
