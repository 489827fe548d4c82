/**
 * Evaluation stays total whatever the stored data: a prerequisite cycle that validation would
 * refuse, written straight into the SQLite tables, answers ERROR over HTTP (evaluate, the
 * single-flag route and explain), at once, and the other flags keep serving.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as StorageLayer from "../../adapters/app/Composition.js"
import { freshSqlStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

let t: TestServer
beforeAll(async () => {
  t = await startServer(freshSqlStorage("sqlite"))
  const call = (method: string, path: string, body: unknown) => request(t.url, method, path, { key: t.keys.global, body })
  for (const key of ["loop-a", "loop-b", "plain"]) {
    const created = await call("POST", "/v1/projects/p1/flags", { key, name: key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
    expect(created.status, created.text).toBe(201)
    await call("PUT", `/v1/projects/p1/flags/${key}/targeting`, { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
  }
  const valid = await call("PUT", "/v1/projects/p1/flags/loop-a/targeting", {
    environment: "production",
    enabled: true,
    defaultVariationKey: "on",
    offVariationKey: "off",
    prerequisites: [{ flagKey: "loop-b", variationKey: "on" }],
    rules: []
  })
  expect(valid.status, valid.text).toBe(200)
  // loop-b -> loop-a closes the cycle behind the API's back. Nothing has been evaluated yet, so
  // the server's first read of the production configuration sees it.
  // The storage context holds the SqlClient too (freshSqlStorage provides it); `run` is typed for the storage only.
  const sqlClient = SqlClient.SqlClient as unknown as Effect.Effect<SqlClient.SqlClient, never, StorageLayer.Storage>
  await t.run(
    Effect.flatMap(sqlClient, (sql) =>
      sql`UPDATE flagport_flag_configs SET prerequisites = ${JSON.stringify([{ flagKey: "loop-a", variationKey: "on" }])}
        WHERE flag_id = (SELECT id FROM flagport_flags WHERE key = 'loop-b' AND project_id = 'p1')
          AND environment_id = (SELECT id FROM flagport_environments WHERE key = 'production' AND project_id = 'p1')`.pipe(Effect.orDie)
    )
  )
})
afterAll(async () => {
  await t?.close()
})

describe("a prerequisite cycle written straight into SQLite", () => {
  it("answers ERROR for both flags of the cycle on every evaluation route, and the other flags still serve", async () => {
    const started = Date.now()
    const all = await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: { environment: "production", context: { key: "u" } } })
    expect(all.status, all.text).toBe(200)
    const flags = (all.body as { flags: Record<string, { reason: { kind: string; error?: string } }> }).flags
    for (const key of ["loop-a", "loop-b"]) {
      expect(flags[key]!.reason.kind).toBe("ERROR")
      expect(flags[key]!.reason.error).toContain("prerequisites form a cycle")
    }
    expect(flags["plain"]!.reason.kind).toBe("FALLTHROUGH")
    const single = await request(t.url, "GET", "/v1/flags/loop-b/eval?environment=production&key=u", { key: t.keys.client })
    expect((single.body as { reason: { kind: string } }).reason.kind).toBe("ERROR")
    const explained = await request(t.url, "POST", "/v1/explain", { key: t.keys.client, body: { environment: "production", flagKey: "loop-a", context: { key: "u" } } })
    expect(explained.status, explained.text).toBe(200)
    expect((explained.body as { result: unknown }).result).toEqual(flags["loop-a"])
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})
