/**
 * A project may have at most 20 webhooks (FLAGPORT_WEBHOOKS_PER_PROJECT): the 21st is refused
 * with 409 in the envelope and nothing is stored; another project is unaffected; deleting one
 * makes room. Through a real server, on SQLite and PostgreSQL (issue 26, item 5).
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { freshSqlStorage } from "../fixtures/databases.js"
import { request, startServer } from "../http/fixtures.js"

const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
})

const hook = (i: number) => ({ url: `https://hooks.example.com/${i}`, events: ["flag.created"] })

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`webhooks per project (${backend})`, () => {
    it("the 21st is refused with 409, nothing stored; other projects unaffected; a deletion makes room", async () => {
      const t = await startServer(freshSqlStorage(backend))
      closers.push(t.close)
      const ids: Array<string> = []
      for (let i = 0; i < 20; i++) {
        const made = await request(t.url, "POST", "/v1/projects/p1/webhooks", { key: t.keys.scoped, body: hook(i) })
        expect(made.status, made.text).toBe(201)
        ids.push((made.body as { id: string }).id)
      }
      const refused = await request(t.url, "POST", "/v1/projects/p1/webhooks", { key: t.keys.scoped, body: hook(20) })
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({
        error: {
          code: "conflict",
          message: "Project 'p1' already has 20 webhook(s), the most one project may have (FLAGPORT_WEBHOOKS_PER_PROJECT); delete one first"
        }
      })
      const listed = (await request(t.url, "GET", "/v1/projects/p1/webhooks", { key: t.keys.scoped })).body as { data: Array<unknown> }
      expect(listed.data).toHaveLength(20)
      const audit = await request(t.url, "GET", "/v1/projects/p1/audit?limit=100", { key: t.keys.scoped })
      expect((audit.body as { data: Array<{ action: string }> }).data.filter((e) => e.action === "webhook.created")).toHaveLength(20)

      expect((await request(t.url, "POST", "/v1/projects/p2/webhooks", { key: t.keys.otherScoped, body: hook(0) })).status).toBe(201)
      expect((await request(t.url, "DELETE", `/v1/projects/p1/webhooks/${ids[0]}`, { key: t.keys.scoped })).status).toBe(204)
      expect((await request(t.url, "POST", "/v1/projects/p1/webhooks", { key: t.keys.scoped, body: hook(21) })).status).toBe(201)
    })

    if (backend === "postgres") {
      it("concurrent creations cannot pass the cap together", async () => {
        const t = await startServer(freshSqlStorage(backend))
        closers.push(t.close)
        const replies = await Promise.all(
          Array.from({ length: 30 }, (_, i) => request(t.url, "POST", "/v1/projects/p1/webhooks", { key: t.keys.scoped, body: hook(i) }))
        )
        expect(replies.filter((r) => r.status === 201)).toHaveLength(20)
        expect(replies.filter((r) => r.status === 409)).toHaveLength(10)
        const listed = (await request(t.url, "GET", "/v1/projects/p1/webhooks", { key: t.keys.scoped })).body as { data: Array<unknown> }
        expect(listed.data).toHaveLength(20)
      })
    }
  })
}

describe("FLAGPORT_WEBHOOKS_PER_PROJECT", () => {
  it("sets the cap", async () => {
    process.env.FLAGPORT_WEBHOOKS_PER_PROJECT = "2"
    try {
      const t = await startServer()
      closers.push(t.close)
      expect((await request(t.url, "POST", "/v1/projects/p1/webhooks", { key: t.keys.scoped, body: hook(0) })).status).toBe(201)
      expect((await request(t.url, "POST", "/v1/projects/p1/webhooks", { key: t.keys.scoped, body: hook(1) })).status).toBe(201)
      const third = await request(t.url, "POST", "/v1/projects/p1/webhooks", { key: t.keys.scoped, body: hook(2) })
      expect(third.status).toBe(409)
      expect((third.body as { error: { message: string } }).error.message).toContain("already has 2 webhook(s)")
    } finally {
      delete process.env.FLAGPORT_WEBHOOKS_PER_PROJECT
    }
  })
})
