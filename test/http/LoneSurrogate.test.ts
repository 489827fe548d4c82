/**
 * A lone surrogate (`"n\ud800x"`) is not Unicode text: PostgreSQL stored it as U+FFFD while the
 * answer and the audit entry showed the original. Refused with 400 at its path wherever stored
 * text enters (the domain's Text rule), and nothing is stored, on SQLite and PostgreSQL; a
 * surrogate pair (an emoji) is fine and comes back as sent (issue 26, item 10).
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { freshSqlStorage } from "../fixtures/databases.js"
import { request, startServer } from "./fixtures.js"

const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
})

const LONE = "n\ud800x"
const MESSAGE = "must be valid Unicode (a lone surrogate such as \\ud800 is not a character)"
const flag = (name: string) => ({ key: "uni", name, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`lone surrogates (${backend})`, () => {
    it("are refused with 400 at their path, and nothing is stored", async () => {
      const t = await startServer(freshSqlStorage(backend))
      closers.push(t.close)
      const key = t.keys.global
      const refused = [
        await request(t.url, "POST", "/v1/projects/p1/flags", { key, body: flag(LONE) }),
        await request(t.url, "POST", "/v1/projects", { key, body: { id: "uni", name: LONE } }),
        await request(t.url, "POST", "/v1/projects/p1/segments", { key, body: { key: "uni", name: "S", description: `d${LONE}`, conditions: [] } }),
        await request(t.url, "POST", "/v1/projects/p1/environments", { key, body: { key: "uni", name: "\udc00" } })
      ]
      expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 400])
      const expected = [["name"], ["name"], ["description"], ["name"]]
      refused.forEach((reply, i) => {
        const details = (reply.body as { error: { code: string; details: Array<{ path: string; message: string }> } }).error.details
        expect(details, reply.text).toContainEqual({ path: expected[i]![0], message: MESSAGE })
      })
      expect((await request(t.url, "GET", "/v1/projects/p1/flags/uni", { key })).status).toBe(404)
      expect((await request(t.url, "GET", "/v1/projects/uni", { key })).status).toBe(404)

      // PATCH too: the flag keeps its name.
      const emoji = "launch 🚀"
      expect((await request(t.url, "POST", "/v1/projects/p1/flags", { key, body: flag(emoji) })).status).toBe(201)
      const patched = await request(t.url, "PATCH", "/v1/projects/p1/flags/uni", { key, body: { name: LONE } })
      expect(patched.status).toBe(400)
      const stored = await request(t.url, "GET", "/v1/projects/p1/flags/uni", { key })
      expect((stored.body as { name: string }).name).toBe(emoji)
      const audit = (await request(t.url, "GET", "/v1/projects/p1/audit", { key })).text
      expect(audit).not.toContain("\\ud800")
      expect(audit).not.toContain("\ufffd")
    })
  })
}
