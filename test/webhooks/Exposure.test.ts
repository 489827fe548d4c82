/**
 * What a project's server key can learn or reach through webhooks, through a real server with the
 * real dispatcher and transport, on SQLite and PostgreSQL (issue 26, item 4):
 * - a destination's answer never reaches the delivery log (nor the database): only its status
 *   and a reason of our own;
 * - link-local and cloud metadata addresses are refused at creation, whatever
 *   FLAGPORT_WEBHOOK_BLOCK_PRIVATE says, and a refused request changes nothing.
 */
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { SqlClient } from "@effect/sql"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { freshSqlStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
})

const SECRET_ANSWER = "INTERNAL-SECRET: db_password=hunter2"

/** An internal service that answers every request 500 with a secret in its body. */
const internalService = async () => {
  const server = Http.createServer((req, res) => {
    req.resume()
    res.writeHead(500, "Secret Reason " + SECRET_ANSWER, { "content-type": "text/plain", "x-secret": SECRET_ANSWER })
    res.end(SECRET_ANSWER)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/internal`
}

const flag = (key: string) => ({ key, name: key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })

const rawAttempts = (t: TestServer) =>
  t.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ error: string | null }>`SELECT error FROM flagport_webhook_attempts`) as never) as Promise<
    ReadonlyArray<{ error: string | null }>
  >

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`webhook exposure (${backend})`, () => {
    it("the delivery log shows the status and our reason, never the destination's answer", async () => {
      const t = await startServer(freshSqlStorage(backend), { webhooks: true })
      closers.push(t.close)
      const url = await internalService()
      const hook = await request(t.url, "POST", "/v1/projects/p1/webhooks", { key: t.keys.scoped, body: { url, events: ["flag.created"] } })
      expect(hook.status, hook.text).toBe(201)
      const id = (hook.body as { id: string }).id
      expect((await request(t.url, "POST", "/v1/projects/p1/flags", { key: t.keys.scoped, body: flag("probe") })).status).toBe(201)
      let log: { text: string; body: unknown } = { text: "", body: undefined }
      for (let i = 0; i < 100; i++) {
        log = await request(t.url, "GET", `/v1/projects/p1/webhooks/${id}/deliveries`, { key: t.keys.scoped })
        if (((log.body as { data: Array<{ attempts: Array<unknown> }> }).data[0]?.attempts.length ?? 0) > 0) break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const attempts = (log.body as { data: Array<{ attempts: Array<{ statusCode: number; error: string }> }> }).data[0]!.attempts
      expect(attempts[0]).toMatchObject({ statusCode: 500, error: "HTTP 500: the receiver failed" })
      expect(log.text).not.toContain("SECRET")
      const stored = await rawAttempts(t)
      expect(stored.length).toBeGreaterThan(0)
      expect(JSON.stringify(stored)).not.toContain("SECRET")
    })

    it("link-local and cloud metadata destinations are refused at creation, and nothing is stored", async () => {
      const t = await startServer(freshSqlStorage(backend))
      closers.push(t.close)
      for (const url of [
        "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
        "http://[fd00:ec2::254]/latest/meta-data/",
        "http://[::ffff:169.254.169.254]/",
        "http://[64:ff9b::a9fe:a9fe]/",
        "http://[2002:a9fe:a9fe::]/",
        "http://[fe80::1]/",
        "http://0xa9fea9fe/"
      ]) {
        for (const method of ["POST", "PATCH"] as const) {
          const reply =
            method === "POST"
              ? await request(t.url, "POST", "/v1/projects/p1/webhooks", { key: t.keys.scoped, body: { url, events: ["flag.created"] } })
              : await request(t.url, "PATCH", `/v1/projects/p1/webhooks/${await existing(t)}`, { key: t.keys.scoped, body: { url } })
          expect(reply.status, `${method} ${url}`).toBe(400)
          const details = (reply.body as { error: { code: string; details: Array<{ path: string; message: string }> } }).error
          expect(details.code).toBe("invalid_request")
          expect(details.details[0]!.path).toBe("url")
          expect(details.details[0]!.message).toMatch(/^must not name .*, never a webhook destination$/)
        }
      }
      const listed = (await request(t.url, "GET", "/v1/projects/p1/webhooks", { key: t.keys.scoped })).body as { data: Array<{ url: string }> }
      expect(listed.data.map((w) => w.url)).toEqual(["https://hooks.example.com/ok"])
    })
  })
}

/** The id of the one acceptable webhook of p1, created on first use. */
const existing = async (t: TestServer): Promise<string> => {
  const listed = (await request(t.url, "GET", "/v1/projects/p1/webhooks", { key: t.keys.scoped })).body as { data: Array<{ id: string }> }
  if (listed.data[0] !== undefined) return listed.data[0].id
  const made = await request(t.url, "POST", "/v1/projects/p1/webhooks", { key: t.keys.scoped, body: { url: "https://hooks.example.com/ok", events: ["flag.created"] } })
  return (made.body as { id: string }).id
}
