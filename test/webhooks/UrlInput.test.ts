import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WebhookRepository } from "../../src/ports/WebhookRepository.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

/**
 * Webhook URLs through the real server: a URL must be stored exactly as it will be called (no
 * spaces or control characters, which URL parsers strip or re-encode) and must not carry
 * credentials, which every read would echo. Both are refused with 400 in the error envelope, on
 * create and on PATCH, and change nothing.
 */

let t: TestServer
beforeAll(async () => {
  t = await startServer()
})
afterAll(() => t.close())

const call = (method: string, path: string, body?: unknown) =>
  request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })

const expectRefused = (reply: Awaited<ReturnType<typeof call>>, message: string) => {
  expect(reply.status, reply.text).toBe(400)
  expect(reply.body).toEqual({
    error: { code: "invalid_request", message: "Invalid webhook", details: [{ path: "url", message }] }
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
