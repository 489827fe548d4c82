/**
 * Operational behaviour through real servers: 500s log the cause and leak nothing (both lanes),
 * /health answers 503 when the database is gone, writes acknowledged by one process are served
 * by another within 1 s (SQLite file and PostgreSQL shared by two servers), revoked keys stop
 * working within the documented lag, and shutdown finishes in-flight requests.
 */
import { createServer, request as httpRequest } from "node:http"
import { afterEach, describe, expect, it, vi } from "@effect/vitest"
import { Context, Effect, Exit, Scope } from "effect"
import { startServer as startStandalone } from "../../adapters/http/serving/Server.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { StorageError } from "../../src/ports/StorageError.js"
import { StorageHealth } from "../../src/ports/StorageHealth.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { Health, make as makeHealth } from "../../src/services/operations/Health.js"
import { Projects } from "../../src/services/projects/Projects.js"
import { Snapshots } from "../../src/services/evaluation/Snapshots.js"
import { freshPostgresUrl, freshSqliteFile } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

const servers: Array<{ close: () => Promise<void> }> = []
let scope = Effect.runSync(Scope.make())
afterEach(async () => {
  vi.restoreAllMocks()
  while (servers.length > 0) await servers.pop()!.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  scope = Effect.runSync(Scope.make())
})
/** A fresh database (file or PostgreSQL database) that lives until the end of the test. */
const fresh = <A, E>(resource: Effect.Effect<A, E, Scope.Scope>) => Effect.runPromise(Scope.extend(resource, scope))
const track = <S extends { close: () => Promise<void> }>(s: S): S => {
  servers.push(s)
  return s
}

const captureLogs = () => {
  const lines: Array<string> = []
  const record = (...args: Array<unknown>) => {
    lines.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(" "))
  }
  for (const method of ["log", "error", "warn", "info", "debug", "groupCollapsed", "group"] as const) {
    vi.spyOn(console, method).mockImplementation(record)
  }
  return lines
}

describe("500: logged, never leaked", () => {
  it("management lane", async () => {
    const t = track(
      await startServer(StorageLayer.memoryStorage, {
        override: (ctx) =>
          Context.add(ctx, Projects, { ...Context.get(ctx, Projects), list: () => Effect.die(new Error("secret-detail at db.query (pool.js:42)")) })
      })
    )
    const logs = captureLogs()
    const reply = await request(t.url, "GET", "/v1/projects", { key: t.keys.global })
    expect(reply.status).toBe(500)
    expect(reply.body).toEqual({ error: { code: "internal_error", message: "An internal error occurred." } })
    expect(reply.text).not.toContain("secret-detail")
    await vi.waitFor(() => expect(logs.join("\n")).toContain("secret-detail"))
  })
  it("management lane, a storage failure (an error, not a defect)", async () => {
    const t = track(
      await startServer(StorageLayer.memoryStorage, {
        override: (ctx) =>
          Context.add(ctx, Projects, { ...Context.get(ctx, Projects), list: () => Effect.fail(new StorageError({ message: "secret-detail: invalid byte sequence" })) })
      })
    )
    const logs = captureLogs()
    const reply = await request(t.url, "GET", "/v1/projects", { key: t.keys.global })
    expect(reply.status).toBe(500)
    expect(reply.body).toEqual({ error: { code: "internal_error", message: "An internal error occurred." } })
    expect(reply.text).not.toContain("secret-detail")
    await vi.waitFor(() => expect(logs.join("\n")).toContain("secret-detail"))
  })
  it("evaluation lane", async () => {
    const t = track(
      await startServer(StorageLayer.memoryStorage, {
        override: (ctx) =>
          Context.add(ctx, Snapshots, {
            ...Context.get(ctx, Snapshots),
            snapshot: () => Effect.fail(new StorageError({ message: "secret-detail: connection reset" }))
          })
      })
    )
    const logs = captureLogs()
    const reply = await request(t.url, "GET", "/v1/config?environment=development", { key: t.keys.client })
    expect(reply.status).toBe(500)
    expect(reply.body).toEqual({ error: { code: "internal_error", message: "An internal error occurred." } })
    await vi.waitFor(() => expect(logs.join("\n")).toContain("secret-detail"))
  })
})

describe("GET /health", () => {
  it("503 with the envelope when the database does not answer", async () => {
    const t = track(
      await startServer(StorageLayer.memoryStorage, {
        // The Health service is built from the storage's health when the app is composed: replace both.
        override: (ctx) => {
          const gone = StorageHealth.of({ backend: "memory", check: Effect.fail(new StorageError({ message: "database is gone" })) })
          return Context.add(Context.add(ctx, StorageHealth, gone), Health, Effect.runSync(Effect.provideService(makeHealth, StorageHealth, gone)))
        }
      })
    )
    captureLogs()
    const reply = await request(t.url, "GET", "/health")
    expect(reply.status).toBe(503)
    expect(reply.body).toEqual({ error: { code: "unavailable", message: "The database is unavailable." } })
  })
  it("503 when a real SQLite database is closed under the server", async () => {
    const file = await fresh(freshSqliteFile)
    const t = track(await startServer(StorageLayer.fromDatabaseUrl(`sqlite:${file}`)))
    expect((await request(t.url, "GET", "/health")).status).toBe(200)
    captureLogs()
    // Close the storage (and its connection) while the HTTP server keeps running.
    await t.closeStorage()
    const reply = await request(t.url, "GET", "/health")
    expect(reply.status).toBe(503)
    expect((reply.body as { error: { code: string } }).error.code).toBe("unavailable")
  })
})

const crossProcess = (label: string, url: () => Promise<string>, checkIntervalMs?: number) =>
  it(`a write through one server is served by another within 1 s (${label})`, async () => {
    const databaseUrl = await url()
    const a = track(await startServer(StorageLayer.fromDatabaseUrl(databaseUrl)))
    const b = track(
      await startStandalone({
        port: 0,
        host: "127.0.0.1",
        storage: StorageLayer.fromDatabaseUrl(databaseUrl),
        webhooks: false,
        ...(checkIntervalMs === undefined ? {} : { lane: { checkIntervalMs } })
      })
    )
    const admin = { key: a.keys.global }
    await request(a.url, "POST", "/v1/projects/p1/flags", {
      ...admin,
      body: { key: "fresh", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
    })
    const evalB = async () =>
      (await request(b.url, "GET", "/v1/flags/fresh/eval?environment=development&key=u", { key: a.keys.client })).body as { value: boolean }
    // Warm B's caches, then keep them hot while A writes.
    for (let i = 0; i < 5; i++) expect((await evalB()).value).toBe(false)
    const put = await request(a.url, "PUT", "/v1/projects/p1/flags/fresh/targeting", {
      ...admin,
      body: { environment: "development", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
    })
    expect(put.status).toBe(200)
    const acknowledged = Date.now()
    let servedAfter = Number.POSITIVE_INFINITY
    while (Date.now() - acknowledged < 2_000) {
      if ((await evalB()).value === true) {
        servedAfter = Date.now() - acknowledged
        break
      }
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(servedAfter).toBeLessThan(1_000)
  })

describe("freshness across processes", () => {
  crossProcess("SQLite file", async () => `sqlite:${await fresh(freshSqliteFile)}`)
  crossProcess("PostgreSQL", () => fresh(freshPostgresUrl))
  // With a one-minute poll, only the LISTEN/NOTIFY push can bring the write over in time.
  crossProcess("PostgreSQL, pushed by NOTIFY", () => fresh(freshPostgresUrl), 60_000)
})

describe("revocation", () => {
  it("a revoked key is refused within the 1 s cache bound", async () => {
    const t: TestServer = track(await startServer())
    const created = await t.run(Effect.flatMap(ApiKeys, (keys) => keys.create({ type: "client", projectId: "p1" })))
    const path = "/v1/config?environment=development"
    expect((await request(t.url, "GET", path, { key: created.secret })).status).toBe(200)
    await t.run(Effect.flatMap(ApiKeys, (keys) => keys.revoke(created.apiKey.id)))
    const revokedAt = Date.now()
    let refusedAfter = Number.POSITIVE_INFINITY
    while (Date.now() - revokedAt < 3_000) {
      if ((await request(t.url, "GET", path, { key: created.secret })).status === 401) {
        refusedAfter = Date.now() - revokedAt
        break
      }
      await new Promise((r) => setTimeout(r, 25))
    }
    expect(refusedAfter).toBeLessThanOrEqual(1_100)
  })
})

describe("webhooks through the standalone server", () => {
  it("a flag created through the API is delivered to a subscribed webhook", async () => {
    const received: Array<{ headers: Record<string, unknown>; body: string }> = []
    const receiver = createServer((req, res) => {
      let body = ""
      req.on("data", (c: Buffer) => (body += c.toString()))
      req.on("end", () => {
        received.push({ headers: req.headers, body })
        res.writeHead(204)
        res.end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    track({ close: () => new Promise<void>((resolve) => receiver.close(() => resolve())) })
    const t = track(await startServer(StorageLayer.memoryStorage, { webhooks: true }))
    const port = (receiver.address() as { port: number }).port
    const hook = await request(t.url, "POST", "/v1/projects/p1/webhooks", {
      key: t.keys.global,
      body: { url: `http://127.0.0.1:${port}/hook`, events: ["flag.created"], secret: "a-long-secret" }
    })
    expect(hook.status).toBe(201)
    await request(t.url, "POST", "/v1/projects/p1/flags", {
      key: t.keys.global,
      body: { key: "hooked", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
    })
    await vi.waitFor(() => expect(received.length).toBe(1), { timeout: 10_000, interval: 100 })
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: "flag.created", projectId: "p1", data: { flag: { key: "hooked" } } })
    expect(received[0]!.headers["webhook-signature"]).toMatch(/^v1,/)
  })
})

describe("graceful shutdown", () => {
  it("finishes an in-flight request, then stops accepting and closes", async () => {
    const t = await startServer()
    const url = new URL(`${t.url}/v1/evaluate`)
    const body = JSON.stringify({ environment: "development", context: { key: "u" } })
    const inFlight = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: "POST",
          headers: { authorization: `Bearer ${t.keys.client}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) }
        },
        (res) => {
          let text = ""
          res.on("data", (c: Buffer) => (text += c.toString()))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }))
        }
      )
      req.on("error", reject)
      // Half of the body now, the rest after the shutdown has begun.
      req.write(body.slice(0, 10))
      setTimeout(() => req.end(body.slice(10)), 300)
    })
    await new Promise((r) => setTimeout(r, 100))
    const closed = t.close()
    const reply = await inFlight
    expect(reply.status).toBe(200)
    expect(JSON.parse(reply.text)).toMatchObject({ environment: "development" })
    await closed
    await expect(fetch(`${t.url}/health`)).rejects.toThrow()
  })
})

