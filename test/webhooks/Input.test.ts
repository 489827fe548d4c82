import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WebhookRepository } from "../../src/ports/WebhookRepository.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

/**
 * Webhook input through the real server.
 *
 * URLs: a URL must be stored exactly as it will be called (no
 * spaces or control characters, which URL parsers strip or re-encode) and must not carry
 * credentials, which every read would echo. Both are refused with 400 in the error envelope, on
 * create and on PATCH, and change nothing.
 *
 * Secrets: a `whsec_` secret must be the Standard Webhooks form (base64 of 24 to 64 bytes).
 */

let t: TestServer
beforeAll(async () => {
  t = await startServer()
})
afterAll(() => t.close())

const call = (method: string, path: string, body?: unknown) =>
  request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })

const expectRefused = (reply: Awaited<ReturnType<typeof call>>, message: string, path = "url") => {
  expect(reply.status, reply.text).toBe(400)
  expect(reply.body).toEqual({
    error: { code: "invalid_request", message: "Invalid webhook", details: [{ path, message }] }
  })
}

const CONTROL = "must not contain spaces or control characters"
const CREDENTIALS = "must not contain a user name or password; deliveries are authenticated by their signature"

const refused: ReadonlyArray<readonly [string, string]> = [
  [" https://hooks.example.com/a", CONTROL],
  ["https://hooks.example.com/a ", CONTROL],
  ["https://hooks.example.com/a\r\nX-Injected: 1", CONTROL],
  ["https://hooks.example.com/a\tb", CONTROL],
  ["https://hooks.example.com/a b", CONTROL],
  ["https://user:pass@hooks.example.com/a", CREDENTIALS],
  ["https://user@hooks.example.com/a", CREDENTIALS],
  ["https://:pass@hooks.example.com/a", CREDENTIALS]
]

describe("webhook URLs", () => {
  it("are refused on create with spaces, control characters or credentials", async () => {
    for (const [url, message] of refused) {
      expectRefused(await call("POST", "/v1/projects/p1/webhooks", { url, events: ["flag.created"] }), message)
    }
    expect((await call("GET", "/v1/projects/p1/webhooks")).body).toEqual({ data: [] })
  })

  it("are refused on PATCH the same way, and the webhook keeps its URL", async () => {
    const created = await call("POST", "/v1/projects/p2/webhooks", { url: "https://hooks.example.com/ok", events: ["flag.created"] })
    expect(created.status).toBe(201)
    const id = (created.body as { id: string }).id
    for (const [url, message] of refused) {
      expectRefused(await call("PATCH", `/v1/projects/p2/webhooks/${id}`, { url }), message)
    }
    expect((await call("GET", `/v1/projects/p2/webhooks/${id}`)).body).toMatchObject({ url: "https://hooks.example.com/ok" })
  })

  it("a URL with credentials stored before they were refused is shown without them", async () => {
    const now = new Date().toISOString()
    await t.run(
      Effect.flatMap(WebhookRepository, (repo) =>
        repo.insert({
          id: "legacy-with-credentials",
          projectId: "p1",
          url: "https://user:pass@hooks.example.com/legacy?x=1",
          events: ["flag.created"],
          enabled: true,
          enabledAt: now,
          disabledAt: null,
          secret: null,
          previousSecret: null,
          previousSecretExpiresAt: null,
          createdAt: now,
          updatedAt: now
        })
      )
    )
    const one = await call("GET", "/v1/projects/p1/webhooks/legacy-with-credentials")
    expect(one.body).toMatchObject({ url: "https://hooks.example.com/legacy?x=1" })
    expect(JSON.stringify((await call("GET", "/v1/projects/p1/webhooks")).body)).not.toContain("pass")
  })
})

describe("webhook secrets", () => {
  const standard = (bytes: number) => "whsec_" + Buffer.alloc(bytes, 9).toString("base64")
  const hook = (secret: string) => ({ url: "https://hooks.example.com/s", events: ["flag.created"], secret })

  it("a whsec_ secret of 24 to 64 bytes is accepted on create and PATCH", async () => {
    const created = await call("POST", "/v1/projects/p2/webhooks", hook(standard(24)))
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({ hasSecret: true })
    const id = (created.body as { id: string }).id
    const patched = await call("PATCH", `/v1/projects/p2/webhooks/${id}`, { secret: standard(64) })
    expect(patched.status, patched.text).toBe(200)
    expect(JSON.stringify(patched.body)).not.toContain("whsec_")
  })

  it("a whsec_ secret that is not base64, or holds too few or too many bytes, is refused with 400", async () => {
    const before = (await call("GET", "/v1/projects/p1/webhooks")).body
    expectRefused(
      await call("POST", "/v1/projects/p1/webhooks", hook("whsec_this is not base64 at all!")),
      "must be whsec_ followed by standard base64 (A-Z, a-z, 0-9, +, /, padded with =)",
      "secret"
    )
    expectRefused(
      await call("POST", "/v1/projects/p1/webhooks", hook(standard(23))),
      "must be whsec_ followed by the base64 of 24 to 64 bytes (this one holds 23)",
      "secret"
    )
    expectRefused(
      await call("POST", "/v1/projects/p1/webhooks", hook(standard(65))),
      "must be whsec_ followed by the base64 of 24 to 64 bytes (this one holds 65)",
      "secret"
    )
    expect((await call("GET", "/v1/projects/p1/webhooks")).body).toEqual(before)
  })
})
