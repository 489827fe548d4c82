/** Webhooks: the lifecycle (the secret never comes back) and the contract's errors. */
import { describe, expect, it } from "@effect/vitest"
import { type Endpoints } from "./harness.js"

export const webhooks = ({ call, expectError }: Endpoints) =>
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
