/**
 * `GET /v1/stream` through a real standalone server: the OFREP notification format, one event per
 * change of the environment's configuration (and none for another environment or project),
 * `Last-Event-ID`, heartbeats, revocation, stream tokens, environment-bound keys, shutdown.
 * The cross-process and SIGTERM cases are in StreamProcesses.test.ts.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { principalOf } from "../../src/domain/auth/Policy.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { StreamTokens } from "../../src/services/auth/StreamTokens.js"
import { freshSqliteFile } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"
import { etagOf, openStream, type OpenStream, sleep } from "./sse.js"

/** How long a test waits to be sure an event is NOT coming. */
const QUIET_MS = 400

let scope = Effect.runSync(Scope.make())
const closers: Array<() => Promise<void> | void> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  scope = Effect.runSync(Scope.make())
})

const serve = async (options: Parameters<typeof startServer>[1] = {}): Promise<TestServer> => {
  const file = await Effect.runPromise(Scope.extend(freshSqliteFile, scope))
  const server = await startServer(StorageLayer.fromDatabaseUrl(`sqlite:${file}`), options)
  closers.push(server.close)
  return server
}

const stream = async (t: TestServer, query: string, headers: Record<string, string> = {}): Promise<OpenStream> => {
  const opened = await openStream(t.url, `/v1/stream${query}`, headers)
  closers.push(opened.close)
  return opened
}

const withKey = (key: string) => ({ authorization: `Bearer ${key}` })

const configEtag = async (t: TestServer, environment = "development", projectKey = t.keys.client) =>
  (await request(t.url, "GET", `/v1/config?environment=${environment}`, { key: projectKey })).headers.get("etag")

const createFlag = (t: TestServer, key: string, project = "p1") =>
  request(t.url, "POST", `/v1/projects/${project}/flags`, {
    key: project === "p1" ? t.keys.scoped : t.keys.otherScoped,
    body: { key, name: key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
  })

const putTargeting = (t: TestServer, flag: string, environment: string, rules: ReadonlyArray<unknown> = [], enabled = true) =>
  request(t.url, "PUT", `/v1/projects/p1/flags/${flag}/targeting`, {
    key: t.keys.scoped,
    body: { environment, enabled, defaultVariationKey: "off", offVariationKey: "off", rules }
  })

/** Asserts that nothing beyond the first `count` events arrives within QUIET_MS. */
const expectNoMoreThan = async (s: OpenStream, count: number) => {
  await sleep(QUIET_MS)
  expect(s.events.length).toBe(count)
}

describe("GET /v1/stream", () => {
  it("answers an SSE stream whose first event is the environment's current config ETag (OFREP format)", async () => {
    const t = await serve()
    const s = await stream(t, "?environment=development", withKey(t.keys.client))
    expect(s.status).toBe(200)
    expect(s.headers["content-type"]).toMatch(/^text\/event-stream/)
    expect(s.headers["cache-control"]).toBe("no-cache")
    expect(s.headers["x-accel-buffering"]).toBe("no")
    const first = await s.event(0)
    expect(first.event).toBe("message")
    expect(etagOf(first)).toBe(await configEtag(t))
    const data = JSON.parse(first.data) as { lastModified: number }
    expect(Math.abs(data.lastModified - Date.now() / 1000)).toBeLessThan(5)
  })

  it("sends one event after each kind of change: a flag, its targeting, a segment its rule reaches", async () => {
    const t = await serve()
    const s = await stream(t, "?environment=development", withKey(t.keys.client))
    await s.event(0)

    expect((await createFlag(t, "checkout")).status).toBe(201)
    expect(etagOf(await s.event(1))).toBe(await configEtag(t))

    expect((await putTargeting(t, "checkout", "development", [{ conditions: [{ operator: "inSegment", values: ["staff"] }], variationKey: "on" }])).status).toBe(400)
    const segment = await request(t.url, "POST", "/v1/projects/p1/segments", {
      key: t.keys.scoped,
      body: { key: "staff", name: "Staff", conditions: [{ attribute: "email", operator: "endsWith", values: ["@shop.example"] }] }
    })
    expect(segment.status).toBe(201)
    expect(etagOf(await s.event(2))).toBe(await configEtag(t))

    const rules = [{ conditions: [{ operator: "inSegment", values: ["staff"] }], variationKey: "on" }]
    expect((await putTargeting(t, "checkout", "development", rules)).status).toBe(200)
    expect(etagOf(await s.event(3))).toBe(await configEtag(t))

    const patched = await request(t.url, "PATCH", "/v1/projects/p1/segments/staff", {
      key: t.keys.scoped,
      body: { conditions: [{ attribute: "email", operator: "endsWith", values: ["@staff.example"] }] }
    })
    expect(patched.status).toBe(200)
    const last = etagOf(await s.event(4))
    expect(last).toBe(await configEtag(t))
    expect(new Set(s.events.map(etagOf)).size).toBe(5) // every event a new configuration
    await expectNoMoreThan(s, 5)
  })

  it("sends nothing for a change in another environment or another project", async () => {
    const t = await serve()
    expect((await createFlag(t, "checkout")).status).toBe(201)
    const s = await stream(t, "?environment=development", withKey(t.keys.client))
    await s.event(0)
    expect((await putTargeting(t, "checkout", "production")).status).toBe(200)
    expect((await createFlag(t, "elsewhere", "p2")).status).toBe(201)
    await expectNoMoreThan(s, 1)
    // The stream is alive: a change of its own environment still arrives.
    expect((await putTargeting(t, "checkout", "development")).status).toBe(200)
    expect(etagOf(await s.event(1))).toBe(await configEtag(t))
  })

  it("sends nothing on connect when Last-Event-ID is the current ETag, and the next change as usual", async () => {
    const t = await serve()
    const current = (await configEtag(t))!
    const s = await stream(t, "?environment=development", { ...withKey(t.keys.client), "last-event-id": current })
    await expectNoMoreThan(s, 0)
    expect((await createFlag(t, "after")).status).toBe(201)
    expect(etagOf(await s.event(0))).not.toBe(current)
    // An older id gets the current ETag at once.
    const stale = await stream(t, "?environment=development", { ...withKey(t.keys.client), "last-event-id": current })
    expect(etagOf(await stale.event(0))).toBe(await configEtag(t))
  })

  it("shares one heartbeat (`: ping`) between every open stream", async () => {
    const t = await serve({ lane: { heartbeatMs: 100 } })
    const a = await stream(t, "?environment=development", withKey(t.keys.client))
    const b = await stream(t, "?environment=production", withKey(t.keys.client))
    await sleep(450)
    expect(a.comments.length).toBeGreaterThanOrEqual(3)
    expect(b.comments.length).toBeGreaterThanOrEqual(3)
    expect(new Set([...a.comments, ...b.comments])).toEqual(new Set([": ping"]))
  })

  it("ends the streams of a key when it is revoked, and only those", async () => {
    const t = await serve()
    const created = await t.run(Effect.flatMap(ApiKeys, (keys) => keys.create({ type: "client", projectId: "p1" })))
    const doomed = await stream(t, "?environment=development", withKey(created.secret))
    const other = await stream(t, "?environment=development", withKey(t.keys.client))
    await doomed.event(0)
    const revoked = await request(t.url, "DELETE", `/v1/projects/p1/keys/${created.apiKey.id}`, { key: t.keys.scoped })
    expect(revoked.status).toBe(204)
    const ended = await Promise.race([doomed.ended.then(() => "ended"), sleep(5_000).then(() => "still open")])
    expect(ended).toBe("ended")
    await expectNoMoreThan(other, 1)
    expect((await stream(t, "?environment=development", withKey(created.secret))).status).toBe(401)
  })

  it("applies the rules of GET /v1/config, environment-bound keys included", async () => {
    const t = await serve()
    const status = async (query: string, key: string) => {
      const s = await stream(t, query, withKey(key))
      s.close()
      return { status: s.status, body: s.body === "" ? undefined : (JSON.parse(s.body) as unknown) }
    }
    expect((await status("?environment=development", "srv_not-a-key")).status).toBe(401)
    expect((await status("?environment=development", t.keys.otherClient)).status).toBe(200) // p2's development
    expect(await status("", t.keys.client)).toEqual({
      status: 400,
      body: { error: { code: "invalid_request", message: "The request is invalid.", details: [{ path: "environment", message: "is required (or use an API key bound to an environment)" }] } }
    })
    expect((await status("?environment=staging", t.keys.client)).status).toBe(404)
    expect((await status("?environment=development", t.keys.global)).status).toBe(400) // a global key names the project
    expect((await status("?environment=development&projectId=p2", t.keys.global)).status).toBe(200)
    expect((await status("?environment=development&projectId=p2", t.keys.scoped)).status).toBe(403)
    // A bound key supplies its environment, and may stream no other.
    const bound = await stream(t, "", withKey(t.keys.boundClient))
    expect(etagOf(await bound.event(0))).toBe(await configEtag(t, "development"))
    expect(await status("?environment=production", t.keys.boundClient)).toEqual({
      status: 403,
      body: { error: { code: "forbidden", message: "API key is not valid for this environment" } }
    })
    expect((await status("?environment=production", t.keys.boundServerOther)).status).toBe(200)
    expect((await status("", t.keys.boundToUnknown)).status).toBe(404)
  })

  it("answers its CORS preflight and carries CORS headers", async () => {
    const t = await serve()
    const preflight = await request(t.url, "OPTIONS", "/v1/stream", {
      headers: { origin: "https://app.example", "access-control-request-method": "GET" }
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, OPTIONS")
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Last-Event-ID")
    const s = await stream(t, "?environment=development", { ...withKey(t.keys.client), origin: "https://app.example" })
    expect(s.headers["access-control-allow-origin"]).toBe("*")
  })

  it("ends every stream when the server closes, promptly", async () => {
    const t = await serve()
    const streams = await Promise.all(Array.from({ length: 20 }, () => stream(t, "?environment=development", withKey(t.keys.client))))
    const started = performance.now()
    await t.server.close()
    expect(performance.now() - started).toBeLessThan(2_000)
    await Promise.all(streams.map((s) => s.ended))
  })
})

describe("GET /v1/stream?token= (stream tokens)", () => {
  const issue = async (t: TestServer, secret: string, scope: { projectId?: string; environment?: string; ttlSeconds?: number }) => {
    const key = await t.run(Effect.flatMap(ApiKeys, (keys) => keys.authenticate(secret)))
    if (key._tag === "None") throw new Error("no such key")
    return t.run(Effect.flatMap(StreamTokens, (tokens) => tokens.issue(principalOf(key.value), scope)))
  }

  it("opens the stream of the token's project and environment without an Authorization header", async () => {
    const t = await serve()
    const issued = await issue(t, t.keys.client, { environment: "production" })
    expect(issued).toMatchObject({ projectId: "p1", environment: "production" })
    expect(issued.expiresAt - Date.now() / 1000).toBeGreaterThan(3_500)
    const s = await stream(t, `?token=${encodeURIComponent(issued.token)}`)
    expect(s.status).toBe(200)
    expect(etagOf(await s.event(0))).toBe(await configEtag(t, "production"))
    expect((await putTargeting(t, "missing", "production")).status).toBe(404)
    expect((await createFlag(t, "seen")).status).toBe(201)
    expect(etagOf(await s.event(1))).toBe(await configEtag(t, "production"))
  })

  it("answers 401 for a malformed, forged or expired token, and for one whose key was revoked", async () => {
    const t = await serve()
    const unauthorized = { error: { code: "unauthorized", message: "Invalid or expired stream token." } }
    const answer = async (token: string) => {
      const s = await stream(t, `?token=${encodeURIComponent(token)}`)
      return { status: s.status, body: JSON.parse(s.body) as unknown }
    }
    expect(await answer("nonsense")).toEqual({ status: 401, body: unauthorized })
    const good = (await issue(t, t.keys.client, { environment: "development" })).token
    const [version, claims, signature] = good.split(".")
    const forgedClaims = Buffer.from(JSON.stringify({ p: "p2", e: "development", k: "x", x: 4_000_000_000 })).toString("base64url")
    expect(await answer(`${version}.${forgedClaims}.${signature}`)).toEqual({ status: 401, body: unauthorized })
    expect(await answer(`${version}.${claims}.${signature!.slice(1)}A`)).toEqual({ status: 401, body: unauthorized })

    const short = (await issue(t, t.keys.client, { environment: "development", ttlSeconds: 1 })).token
    await sleep(2_100)
    expect(await answer(short)).toEqual({ status: 401, body: unauthorized })

    const created = await t.run(Effect.flatMap(ApiKeys, (keys) => keys.create({ type: "client", projectId: "p1" })))
    const orphan = (await issue(t, created.secret, { environment: "development" })).token
    expect((await stream(t, `?token=${encodeURIComponent(orphan)}`)).status).toBe(200)
    await t.run(Effect.flatMap(ApiKeys, (keys) => keys.revoke(created.apiKey.id)))
    expect(await answer(orphan)).toEqual({ status: 401, body: unauthorized })
  })

  it("is read-only and bound to its scope: 403 for a query naming another environment, 401 on other endpoints", async () => {
    const t = await serve()
    const token = (await issue(t, t.keys.client, { environment: "development" })).token
    expect((await stream(t, `?token=${encodeURIComponent(token)}&environment=production`)).status).toBe(403)
    expect((await stream(t, `?token=${encodeURIComponent(token)}&environment=development`)).status).toBe(200)
    expect((await request(t.url, "GET", `/v1/config?environment=development&token=${encodeURIComponent(token)}`)).status).toBe(401)
    expect((await request(t.url, "GET", "/v1/config?environment=development", { key: token })).status).toBe(401)
  })

  it("issues only what the key may stream (the rules of GET /v1/config)", async () => {
    const t = await serve()
    await expect(issue(t, t.keys.boundClient, { environment: "production" })).rejects.toThrow("API key is not valid for this environment")
    await expect(issue(t, t.keys.otherClient, { projectId: "p1", environment: "development" })).rejects.toThrow(
      "This API key is not authorized for the requested project."
    )
    await expect(issue(t, t.keys.client, {})).rejects.toThrow("The request is invalid.")
    expect(await issue(t, t.keys.boundClient, {})).toMatchObject({ projectId: "p1", environment: "development" })
    expect((await issue(t, t.keys.client, { environment: "development", ttlSeconds: 10 * 24 * 3600 })).expiresAt - Date.now() / 1000)
      .toBeLessThanOrEqual(24 * 3600)
  })
})
