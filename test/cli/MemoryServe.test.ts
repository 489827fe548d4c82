/**
 * `DATABASE_URL=memory:` with `flagport serve --init`: the keys printed at the first start work
 * against the server that printed them (seeding and serving share the one in-memory store).
 */
import { describe, expect, it } from "vitest"
import { keyLines, startServer, stopServer } from "./Process.js"

describe("flagport serve --init on memory:", () => {
  it("serves the store it seeded", { timeout: 120_000 }, async () => {
    const server = await startServer(["serve", "--init"], { DATABASE_URL: "memory:" })
    try {
      const keys = keyLines(server.output().stdout)
      expect(keys.SERVER_KEY).toMatch(/^srv_/)
      const projects = await fetch(`${server.baseUrl}/v1/projects`, { headers: { authorization: `Bearer ${keys.SERVER_KEY}` } })
      expect(projects.status).toBe(200)
      expect(((await projects.json()) as { data: Array<{ id: string }> }).data.map((project) => project.id)).toEqual(["default"])
    } finally {
      expect(await stopServer(server)).toBe(0)
    }
  })
})
