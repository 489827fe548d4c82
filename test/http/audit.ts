/**
 * The audit log through the standalone server over HTTP, as one suite run on each SQL backend
 * (Audit.test.ts: SQLite, AuditPg.test.ts: PostgreSQL): an entry with the calling key for every
 * kind of management write, a failed write that leaves neither change nor entry (also when the
 * entry itself cannot be written: a test-only audit adapter that fails on demand is layered over
 * the real one), and the read endpoint's filters, paging, validation and authorization.
 */
import type { SqlClient } from "@effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as InProcessChangeFeed from "../../adapters/change-feed/InProcessChangeFeed.js"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.js"
import * as SqlStorage from "../../adapters/sql/SqlStorage.js"
import type * as StorageLayer from "../../adapters/app/Composition.js"
import type { AuditEntry } from "../../src/domain/audit/AuditEntry.js"
import { Messages } from "../../src/domain/auth/Policy.js"
import { AuditLog } from "../../src/ports/AuditLog.js"
import * as IdGenerator from "../../src/ports/IdGenerator.js"
import { StorageError } from "../../src/ports/StorageError.js"
import * as UseCases from "../../src/services/UseCases.js"
import { freshPostgres, freshSqlite } from "../fixtures/databases.js"
import { type Reply, request, startServer, type TestServer } from "./fixtures.js"

/** Whether the audit adapter fails every append (switched on by a test, off again after it). */
const failing = { appends: false }

/** The real SQL audit log, except that appends fail while `failing.appends` is on. */
const switchableAudit = Layer.effect(
  AuditLog,
  Effect.map(AuditLog, (real) =>
    AuditLog.of({
      ...real,
      append: (entry) => (failing.appends ? Effect.fail(new StorageError({ message: "injected audit failure" })) : real.append(entry))
    })
  )
).pipe(Layer.provide(SqlStorage.layer))

/** The storage as StorageLayer builds it for SQL, with the switchable audit log under the use cases. */
const storageWithSwitchableAudit = (client: Layer.Layer<SqlClient.SqlClient, StorageError>): Layer.Layer<StorageLayer.Storage, StorageError> =>
  UseCases.layer.pipe(
    Layer.provideMerge(
      Layer.mergeAll(Layer.merge(SqlStorage.layer, switchableAudit), IdGenerator.layer, NodeCrypto.layer, InProcessChangeFeed.layer)
    ),
    Layer.provide(client)
  )

interface Page {
  readonly data: ReadonlyArray<AuditEntry>
  readonly nextCursor: string | null
}

export const auditSuite = (backend: "sqlite" | "postgres"): void => {
  describe(`audit log over HTTP (${backend})`, () => {
    let t: TestServer
    /** A server key of p1 with a name, made over HTTP: the actor the entries should name. */
    let editor: { id: string; name: string; key: string }

    const as = (key: string) => (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      request(t.url, method, path, { key, ...(body === undefined ? {} : { body }), ...(headers === undefined ? {} : { headers }) })
    const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => as(editor.key)(method, path, body, headers)
    const audit = async (query = "", projectId = "p1"): Promise<Page> => {
      const reply = await request(t.url, "GET", `/v1/projects/${projectId}/audit${query}`, { key: t.keys.global })
      expect(reply.status, reply.text).toBe(200)
      return reply.body as Page
    }
    const expectStatus = (reply: Reply, status: number) => expect(reply.status, reply.text).toBe(status)

    const flag = (key: string) => ({
      key,
      type: "string",
      variations: [
        { key: "a", value: "A" },
        { key: "b", value: "B" }
      ]
    })
    const targeting = (environment: string, enabled: boolean) => ({ environment, enabled, defaultVariationKey: "a", offVariationKey: "b", rules: [] })

    beforeAll(async () => {
      t = await startServer(storageWithSwitchableAudit(backend === "sqlite" ? freshSqlite() : freshPostgres()))
      const made = await request(t.url, "POST", "/v1/projects/p1/keys", { key: t.keys.global, body: { type: "server", name: "Release manager" } })
      editor = made.body as { id: string; name: string; key: string }
    })
    afterAll(async () => {
      failing.appends = false
      await t?.close()
    })

    it("every kind of management write leaves one entry naming the key that made it", async () => {
      expectStatus(await call("POST", "/v1/projects/p1/flags", flag("audited")), 201)
      expectStatus(await call("PATCH", "/v1/projects/p1/flags/audited", { name: "Audited" }), 200)
      expectStatus(await call("PUT", "/v1/projects/p1/flags/audited/targeting", targeting("development", true)), 200)
      expectStatus(await call("POST", "/v1/projects/p1/environments/production/copy", { from: "development", flags: ["audited"] }), 200)
      expectStatus(await call("POST", "/v1/projects/p1/segments", { key: "beta", name: "Beta", conditions: [] }), 201)
      expectStatus(await call("PATCH", "/v1/projects/p1/segments/beta", { name: "Beta users" }), 200)
      expectStatus(await call("PUT", "/v1/projects/p1/segments/beta/keys/included", "ada\n", { "content-type": "text/plain" }), 200)
      expectStatus(await call("PATCH", "/v1/projects/p1/segments/beta/keys/excluded", { add: ["edsger"] }), 200)
      expectStatus(await call("DELETE", "/v1/projects/p1/segments/beta"), 204)
      const hook = (await call("POST", "/v1/projects/p1/webhooks", { url: "https://hooks.example.com/a", events: ["flag.created"], secret: "never-in-the-audit-log" })).body as { id: string }
      expectStatus(await call("PATCH", `/v1/projects/p1/webhooks/${hook.id}`, { enabled: false }), 200)
      expectStatus(await call("DELETE", `/v1/projects/p1/webhooks/${hook.id}`), 204)
      expectStatus(await call("POST", "/v1/projects/p1/environments", { key: "qa", name: "QA" }), 201)
      const key = (await call("POST", "/v1/projects/p1/keys", { type: "client", name: "SDK" })).body as { id: string; key: string }
      expectStatus(await call("DELETE", `/v1/projects/p1/keys/${key.id}`), 204)
      const schedules = "/v1/projects/p1/flags/audited/schedules"
      const schedule = (await call("POST", schedules, { environment: "production", at: "2999-01-01T09:00:00Z", targeting: { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] } })).body as { id: string }
      expectStatus(await call("DELETE", `${schedules}/${schedule.id}`), 204)
      expectStatus(await call("DELETE", "/v1/projects/p1/flags/audited"), 204)
      // A project is made by a global key: its own first entry names that key.
      expectStatus(await request(t.url, "POST", "/v1/projects", { key: t.keys.global, body: { id: "audited-project", name: "Audited" } }), 201)

      const page = await audit("?limit=200")
      const mine = page.data.filter((e) => e.actor.type === "key" && e.actor.keyId === editor.id).reverse()
      expect(mine.map((e) => [e.action, e.resource.type, e.resource.key, e.environment ?? null])).toEqual([
        ["flag.created", "flag", "audited", null],
        ["flag.updated", "flag", "audited", null],
        ["targeting.updated", "flag", "audited", "development"],
        ["targeting.updated", "flag", "audited", "production"],
        ["segment.created", "segment", "beta", null],
        ["segment.updated", "segment", "beta", null],
        ["segment.keys.replaced", "segment", "beta", null],
        ["segment.keys.changed", "segment", "beta", null],
        ["segment.deleted", "segment", "beta", null],
        ["webhook.created", "webhook", hook.id, null],
        ["webhook.updated", "webhook", hook.id, null],
        ["webhook.deleted", "webhook", hook.id, null],
        ["environment.created", "environment", "qa", "qa"],
        ["key.created", "key", key.id, null],
        ["key.revoked", "key", key.id, null],
        ["schedule.created", "schedule", schedule.id, "production"],
        ["schedule.cancelled", "schedule", schedule.id, "production"],
        ["flag.deleted", "flag", "audited", null]
      ])
      expect(mine.every((e) => e.projectId === "p1" && JSON.stringify(e.actor) === JSON.stringify({ type: "key", keyId: editor.id, keyName: "Release manager" }))).toBe(true)
      expect(mine[1]).toMatchObject({ before: { name: "audited", version: 1 }, after: { name: "Audited", version: 2 } })
      expect(mine[6]).toMatchObject({ before: { list: "included", version: 0, count: 0 }, after: { list: "included", version: 1, count: 1 } })
      expect(mine[7]).toMatchObject({ before: { list: "excluded", version: 0 }, after: { list: "excluded", version: 1, count: 1 } })
      expect(mine[15]).toMatchObject({ before: null, after: { id: schedule.id, status: "pending" } })
      expect(mine[16]).toMatchObject({ before: { status: "pending" }, after: { status: "cancelled" } })
      expect(mine[17]).toMatchObject({ before: { key: "audited" }, after: null })
      // The seed's writes came from the use cases directly (no HTTP): the default actor, cli.
      expect(page.data.filter((e) => e.action === "project.created").map((e) => e.actor)).toEqual([{ type: "cli" }])
      const text = JSON.stringify(page)
      expect(text).not.toContain("never-in-the-audit-log")
      expect(text).not.toContain(key.key)
      const other = await audit("", "audited-project")
      expect(other.data.map((e) => [e.action, e.actor])).toEqual([["project.created", { type: "key", keyId: expect.any(String), keyName: "" }]])
    })

    it("a write that fails leaves neither the change nor an entry", async () => {
      expectStatus(await call("POST", "/v1/projects/p1/flags", flag("kept")), 201)
      const before = await audit("?limit=200")
      expectStatus(await call("POST", "/v1/projects/p1/flags", flag("kept")), 409)
      expectStatus(await call("PUT", "/v1/projects/p1/flags/kept/targeting", { ...targeting("development", true), defaultVariationKey: "nope" }), 400)
      expectStatus(await call("PATCH", "/v1/projects/p1/flags/kept", { name: "stale" }, { "if-match": '"7"' }), 412)
      expectStatus(await call("DELETE", "/v1/projects/p1/segments/nothing"), 404)
      expect(await audit("?limit=200")).toEqual(before)
      expect(((await call("GET", "/v1/projects/p1/flags/kept")).body as { name: string; version: number })).toMatchObject({ name: "kept", version: 1 })
    })

    it("a failure after the change but before its entry leaves neither (500, nothing changed)", async () => {
      expectStatus(await call("POST", "/v1/projects/p1/flags", flag("guarded")), 201)
      expectStatus(await call("POST", "/v1/projects/p1/segments", { key: "guarded", name: "Guarded", conditions: [] }), 201)
      const hook = (await call("POST", "/v1/projects/p1/webhooks", { url: "https://hooks.example.com/g", events: ["flag.created"] })).body as { id: string }
      const key = (await call("POST", "/v1/projects/p1/keys", { type: "client", name: "guarded" })).body as { id: string }
      // Development now differs from production, so the copy below has a change to make.
      expectStatus(await call("PUT", "/v1/projects/p1/flags/guarded/targeting", targeting("development", true)), 200)
      const entries = await audit("?limit=200")
      const flagBefore = (await call("GET", "/v1/projects/p1/flags/guarded")).body
      failing.appends = true
      try {
        const writes: ReadonlyArray<readonly [string, string, unknown?]> = [
          ["POST", "/v1/projects/p1/flags", flag("ghost")],
          ["PATCH", "/v1/projects/p1/flags/guarded", { name: "never" }],
          ["PUT", "/v1/projects/p1/flags/guarded/targeting", targeting("production", true)],
          ["DELETE", "/v1/projects/p1/flags/guarded"],
          ["POST", "/v1/projects/p1/environments/production/copy", { from: "development", flags: ["guarded"] }],
          ["POST", "/v1/projects/p1/segments", { key: "ghost", name: "G", conditions: [] }],
          ["PATCH", "/v1/projects/p1/segments/guarded", { name: "never" }],
          ["DELETE", "/v1/projects/p1/segments/guarded"],
          ["POST", "/v1/projects/p1/webhooks", { url: "https://hooks.example.com/ghost", events: ["flag.created"] }],
          ["PATCH", `/v1/projects/p1/webhooks/${hook.id}`, { enabled: false }],
          ["DELETE", `/v1/projects/p1/webhooks/${hook.id}`],
          ["POST", "/v1/projects/p1/environments", { key: "ghost", name: "G" }],
          ["POST", "/v1/projects/p1/keys", { type: "client", name: "ghost" }],
          ["DELETE", `/v1/projects/p1/keys/${key.id}`],
          ["POST", "/v1/projects/p1/flags/guarded/schedules", { environment: "production", at: "2999-01-01T09:00:00Z", targeting: { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] } }]
        ]
        for (const [method, path, body] of writes) {
          const reply = await call(method, path, body)
          expect({ method, path, status: reply.status, body: reply.body }).toEqual({ method, path, status: 500, body: { error: { code: "internal_error", message: expect.any(String) } } })
        }
        const projectReply = await request(t.url, "POST", "/v1/projects", { key: t.keys.global, body: { id: "ghost-project", name: "G" } })
        expectStatus(projectReply, 500)
      } finally {
        failing.appends = false
      }
      expect(await audit("?limit=200")).toEqual(entries)
      expect((await call("GET", "/v1/projects/p1/flags/guarded")).body).toEqual(flagBefore)
      expectStatus(await call("GET", "/v1/projects/p1/flags/ghost"), 404)
      expect(((await call("GET", "/v1/projects/p1/segments/guarded")).body as { name: string }).name).toBe("Guarded")
      expectStatus(await call("GET", "/v1/projects/p1/segments/ghost"), 404)
      const hooks = ((await call("GET", "/v1/projects/p1/webhooks")).body as { data: Array<{ id: string; enabled: boolean }> }).data
      expect(hooks.find((h) => h.id === hook.id)?.enabled).toBe(true)
      expect(hooks.map((h) => (h as { url?: string }).url)).not.toContain("https://hooks.example.com/ghost")
      expect(((await call("GET", "/v1/projects/p1/environments")).body as { data: Array<{ key: string }> }).data.map((e) => e.key)).not.toContain("ghost")
      const keys = ((await call("GET", "/v1/projects/p1/keys")).body as { data: Array<{ id: string; name: string; revokedAt: string | null }> }).data
      expect(keys.find((k) => k.id === key.id)?.revokedAt).toBeNull()
      expect(keys.map((k) => k.name)).not.toContain("ghost")
      expect((await request(t.url, "GET", "/v1/projects", { key: t.keys.global })).text).not.toContain("ghost-project")
      expect((await call("GET", "/v1/projects/p1/flags/guarded/schedules")).body).toEqual({ data: [] })
      // And with appends working again, the same write goes through and is recorded.
      expectStatus(await call("PATCH", "/v1/projects/p1/flags/guarded", { name: "now" }), 200)
      expect((await audit("?limit=1")).data.map((e) => [e.action, e.resource.key])).toEqual([["flag.updated", "guarded"]])
    })

    it("filters by resource and environment; pages newest first with an opaque cursor", async () => {
      for (const key of ["paged-1", "paged-2", "paged-3"]) expectStatus(await call("POST", "/v1/projects/p1/flags", flag(key)), 201)
      for (const enabled of [true, false, true]) expectStatus(await call("PUT", "/v1/projects/p1/flags/paged-2/targeting", targeting("production", enabled)), 200)
      const oneFlag = await audit("?resourceType=flag&resourceKey=paged-2")
      expect(oneFlag.data.map((e) => [e.action, e.environment ?? null])).toEqual([
        ["targeting.updated", "production"],
        ["targeting.updated", "production"],
        ["targeting.updated", "production"],
        ["flag.created", null]
      ])
      expect(oneFlag.nextCursor).toBeNull()
      const production = await audit("?environment=production&limit=200")
      expect(production.data.length).toBeGreaterThanOrEqual(3)
      expect(production.data.every((e) => e.environment === "production")).toBe(true)
      expect((await audit("?resourceType=segment&resourceKey=paged-2")).data).toEqual([])

      const all = await audit("?limit=200")
      const seen: Array<string> = []
      let query = "?limit=4"
      for (;;) {
        const page = await audit(query)
        expect(page.data.length).toBeLessThanOrEqual(4)
        seen.push(...page.data.map((e) => e.id))
        if (page.nextCursor === null) break
        expect(page.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/)
        query = `?limit=4&cursor=${encodeURIComponent(page.nextCursor)}`
      }
      expect(seen).toEqual(all.data.map((e) => e.id))
      const times = all.data.map((e) => e.at)
      expect([...times].sort().reverse()).toEqual(times)
      // The default page is 50 entries.
      expect((await audit()).data.length).toBe(Math.min(50, all.data.length))
    })

    it("bad queries are 400 in the error envelope; an unknown project is 404", async () => {
      const get = (query: string, projectId = "p1") => request(t.url, "GET", `/v1/projects/${projectId}/audit${query}`, { key: t.keys.global })
      for (const query of ["?limit=0", "?limit=201", "?limit=ten", "?limit=1.5", "?resourceType=planet", "?cursor=%21%21", "?cursor=bm90LWEtY3Vyc29y"]) {
        const reply = await get(query)
        expect(reply.status, `${query}: ${reply.text}`).toBe(400)
        expect((reply.body as { error: { code: string; details: Array<{ path: string }> } }).error.code).toBe("invalid_request")
      }
      const limit = (await get("?limit=0")).body as { error: { details: Array<{ path: string }> } }
      expect(limit.error.details.map((d) => d.path)).toEqual(["limit"])
      const cursor = (await get("?cursor=bm90LWEtY3Vyc29y")).body as { error: { details: Array<{ path: string }> } }
      expect(cursor.error.details.map((d) => d.path)).toEqual(["cursor"])
      expectStatus(await get("", "nowhere"), 404)
    })

    it("is read like every management endpoint: own project with a scoped key, not with a client key", async () => {
      expectStatus(await request(t.url, "GET", "/v1/projects/p1/audit", { key: t.keys.scoped }), 200)
      const otherProject = await request(t.url, "GET", "/v1/projects/p1/audit", { key: t.keys.otherScoped })
      expect({ status: otherProject.status, body: otherProject.body }).toEqual({ status: 403, body: { error: { code: "forbidden", message: Messages.projectMismatch } } })
      const client = await request(t.url, "GET", "/v1/projects/p1/audit", { key: t.keys.client })
      expect({ status: client.status, body: client.body }).toEqual({ status: 403, body: { error: { code: "forbidden", message: Messages.serverKeyRequired } } })
    })
  })
}
