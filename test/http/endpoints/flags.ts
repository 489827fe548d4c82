/** Flags: the lifecycle, validation, targeting, and optimistic concurrency with ETag / If-Match. */
import { describe, expect, it } from "@effect/vitest"
import { type Endpoints, type Reply, flag } from "./harness.js"

export const flags = ({ call, expectError }: Endpoints) =>
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

export const optimisticConcurrency = ({ call, expectError }: Endpoints) =>
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
