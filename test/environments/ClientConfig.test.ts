/**
 * An environment's `clientConfig` (issue 26 item 11), through a real server on SQLite and
 * PostgreSQL: `PATCH /v1/projects/{p}/environments/{e}` sets it (audited, its validation errors),
 * with `evaluated` a client key is refused `GET /v1/config` (and `POST /v1/explain`, whose trace
 * shows the rules' values) with a message saying why while it
 * still evaluates (evaluate, the single flag, OFREP) and streams changes (keys and ETag, no rules), a server key still reads the configuration,
 * and switching back to `full` gives the client key its 200 again.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Messages } from "../../src/domain/auth/Policy.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { openStream } from "../http/sse.js"

const PATH = "/v1/projects/p1/environments/production"

describe.each(["sqlite", "postgres"] as const)("clientConfig (%s)", (backend) => {
  let t: TestServer
  const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
  const config = (key: string) =>
    request(t.url, "GET", `/v1/config?environment=production${key === t.keys.global ? "&projectId=p1" : ""}`, { key })
  const evaluations = async () => {
    const evaluate = await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: { environment: "production", context: { key: "u" } } })
    expect(evaluate.status, evaluate.text).toBe(200)
    const single = await request(t.url, "GET", "/v1/flags/f/eval?environment=production&key=u", { key: t.keys.client })
    expect(single.status, single.text).toBe(200)
    const ofrep = await request(t.url, "POST", "/ofrep/v1/evaluate/flags/f", { key: t.keys.client, body: { context: { targetingKey: "u" } }, headers: { "flagport-environment": "production" } })
    expect(ofrep.status, ofrep.text).toBe(200)
  }
  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    expect((await admin("POST", "/v1/projects/p1/flags", { key: "f", type: "string", variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] })).status).toBe(201)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("environments show clientConfig, full by default", async () => {
    const listed = (await admin("GET", "/v1/projects/p1/environments")).body as { data: Array<{ key: string; clientConfig: string }> }
    expect(listed.data.map((e) => e.clientConfig)).toEqual(listed.data.map(() => "full"))
    const made = await admin("POST", "/v1/projects/p1/environments", { key: "staging", name: "Staging" })
    expect(made.status, made.text).toBe(201)
    expect(made.body).toMatchObject({ key: "staging", clientConfig: "full" })
    expect((await config(t.keys.client)).status).toBe(200)
  })

  it("with evaluated, a client key is refused /v1/config and still evaluates; a server key reads it; full again gives it back", async () => {
    const before = await config(t.keys.client)
    expect(before.status, before.text).toBe(200)

    const patched = await admin("PATCH", PATH, { clientConfig: "evaluated" })
    expect(patched.status, patched.text).toBe(200)
    expect(patched.body).toMatchObject({ projectId: "p1", key: "production", name: "Production", clientConfig: "evaluated" })
    const listed = (await admin("GET", "/v1/projects/p1/environments")).body as { data: Array<{ key: string; clientConfig: string }> }
    expect(Object.fromEntries(listed.data.map((e) => [e.key, e.clientConfig]))).toMatchObject({ development: "full", production: "evaluated" })

    const refused = await config(t.keys.client)
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({ error: { code: "forbidden", message: Messages.clientConfigWithheld } })
    expect(Messages.clientConfigWithheld).toMatch(/evaluated answers only/)
    const explain = (key: string) => request(t.url, "POST", "/v1/explain", { key, body: { environment: "production", flagKey: "f", context: { key: "u" } } })
    const explained = await explain(t.keys.client)
    expect(explained.status).toBe(403)
    expect(explained.body).toEqual(refused.body)
    expect((await explain(t.keys.scoped)).status).toBe(200)
    // A cached ETag does not get around it.
    const etag = before.headers.get("etag") ?? ""
    expect((await request(t.url, "GET", "/v1/config?environment=production", { key: t.keys.client, headers: { "if-none-match": etag } })).status).toBe(403)
    // Another environment of the project is untouched.
    expect((await request(t.url, "GET", "/v1/config?environment=development", { key: t.keys.client })).status).toBe(200)
    await evaluations()
    // The change stream is an evaluation route too: it opens, and tells of a change by keys and
    // ETag only (never the rules, which the client may not read here).
    const stream = await openStream(t.url, "/v1/stream?environment=production", { authorization: `Bearer ${t.keys.client}` })
    try {
      expect(stream.status, stream.body).toBe(200)
      expect(String(stream.headers["content-type"])).toMatch(/^text\/event-stream/)
      const secret = "only-for-servers@example.com"
      const rules = [{ conditions: [{ attribute: "email", operator: "in", values: [secret] }], variationKey: "b" }]
      const put = await admin("PUT", "/v1/projects/p1/flags/f/targeting", { environment: "production", enabled: true, defaultVariationKey: "a", offVariationKey: "a", rules })
      expect(put.status, put.text).toBe(200)
      const event = await stream.event(stream.events.length, 10_000)
      expect(event.data).toContain("f")
      expect(event.data).not.toContain(secret)
    } finally {
      stream.close()
    }
    for (const key of [t.keys.global, t.keys.scoped]) {
      const server = await config(key)
      expect(server.status, server.text).toBe(200)
      expect(server.body).toMatchObject({ environment: "production" })
    }

    const back = await admin("PATCH", PATH, { clientConfig: "full" })
    expect(back.status, back.text).toBe(200)
    expect(back.body).toMatchObject({ clientConfig: "full" })
    const again = await config(t.keys.client)
    expect(again.status, again.text).toBe(200)
    expect((await explain(t.keys.client)).status).toBe(200)
    await evaluations()

    const audit = await admin("GET", "/v1/projects/p1/audit?resourceType=environment&resourceKey=production")
    const entries = (audit.body as { data: Array<{ action: string; before: { clientConfig: string }; after: { clientConfig: string } }> }).data
    expect(entries.filter((e) => e.action === "environment.updated").map((e) => [e.action, e.before.clientConfig, e.after.clientConfig])).toEqual([
      ["environment.updated", "evaluated", "full"],
      ["environment.updated", "full", "evaluated"]
    ])
  })

  it("refuses unknown fields, bad values, unknown environments and keys that may not manage it", async () => {
    const invalid = async (body: unknown) => {
      const reply = await admin("PATCH", PATH, body)
      expect(reply.status, reply.text).toBe(400)
      expect(reply.body).toMatchObject({ error: { code: "invalid_request" } })
    }
    await invalid({ clientConfig: "none" })
    await invalid({ clientConfig: null })
    await invalid({ clientConfig: "full", name: "Prod", extra: 1 })
    await invalid([])
    expect((await admin("PATCH", "/v1/projects/p1/environments/nowhere", { clientConfig: "evaluated" })).status).toBe(404)
    expect((await admin("PATCH", "/v1/projects/nope/environments/production", { clientConfig: "evaluated" })).status).toBe(404)
    for (const key of [t.keys.client, t.keys.otherScoped]) {
      expect((await request(t.url, "PATCH", PATH, { key, body: { clientConfig: "evaluated" } })).status).toBe(403)
    }
    const bound = await request(t.url, "PATCH", "/v1/projects/p1/environments/development", { key: t.keys.boundServerOther, body: { clientConfig: "evaluated" } })
    expect(bound.body).toEqual({ error: { code: "forbidden", message: Messages.environmentMismatch } })
    // Nothing changed.
    expect((await config(t.keys.client)).status).toBe(200)
  })
})
