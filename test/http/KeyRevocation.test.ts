/**
 * A key revoked through one server stops working on another server over the same PostgreSQL
 * database within the key cache's lifetime (the contract allows at most 5 s). Each server has its
 * own runtime, connection pool and key cache, as two processes would.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import * as PgStorage from "../../adapters/sql-pg/PgStorage.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { freshPostgresUrl } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

describe("revoking a key over HTTP (two servers, one PostgreSQL)", () => {
  let first: TestServer
  let second: TestServer
  let dropDatabase: () => Promise<void>

  beforeAll(async () => {
    const scope = await Effect.runPromise(Scope.make())
    dropDatabase = () => Effect.runPromise(Scope.close(scope, Exit.void))
    const url = await Effect.runPromise(Scope.extend(freshPostgresUrl, scope))
    const storage = () => StorageLayer.sqlStorage(PgStorage.layer({ url }))
    first = await startServer(storage())
    second = await startServer(storage(), { seeded: first.keys })
  })
  afterAll(async () => {
    await first?.close()
    await second?.close()
    await dropDatabase?.()
  })

  it("the second server refuses the key within 5 s", async () => {
    const made = (await request(first.url, "POST", "/v1/projects/p1/keys", { key: first.keys.global, body: { type: "server", name: "leaving" } }))
      .body as { id: string; key: string }
    // Both servers have the key in their caches.
    for (const server of [first, second]) {
      expect((await request(server.url, "GET", "/v1/projects/p1/flags", { key: made.key })).status).toBe(200)
    }
    expect((await request(first.url, "DELETE", `/v1/projects/p1/keys/${made.id}`, { key: first.keys.global })).status).toBe(204)
    const revokedAt = Date.now()
    // The server that revoked it refuses it at once.
    expect((await request(first.url, "GET", "/v1/projects/p1/flags", { key: made.key })).status).toBe(401)
    let status = 200
    while (status !== 401 && Date.now() - revokedAt < 6_000) {
      status = (await request(second.url, "GET", "/v1/projects/p1/flags", { key: made.key })).status
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(status).toBe(401)
    expect(Date.now() - revokedAt).toBeLessThan(5_000)
  })
})
