/**
 * A key list changing never holds the evaluation routes: through a real server on SQLite and
 * PostgreSQL, with the list's read held by a latch in front of the real storage, evaluations keep
 * answering from the previous list while the read is held, then from the new one once it is done;
 * a change that touches no list takes effect at the next evaluation, as ever.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { vi } from "vitest"
import { SegmentKeyRepository } from "../../src/ports/SegmentKeyRepository.js"
import * as Layer from "effect/Layer"
import * as StorageLayer from "../../adapters/app/Composition.js"
import * as Ports from "../../adapters/storage/Ports.js"
import { freshPostgres, freshSqlite } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

const SEGMENT = "/v1/projects/p1/segments/testers"

const deferred = () => {
  let resolve = () => {}
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

/** Holds every list read while armed: `entered` settles at the first held read, `release` lets them all go. */
class Latch {
  armed = false
  private readonly opened = deferred()
  private readonly reached = deferred()
  get entered() {
    return this.reached.promise
  }
  wait(): Promise<void> {
    this.reached.resolve()
    return this.opened.promise
  }
  release() {
    this.armed = false
    this.opened.resolve()
  }
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`a key list reloads off the request path (${backend})`, () => {
    let t: TestServer
    const latch = new Latch()
    const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
    const served = async (key: string) => {
      const reply = await request(t.url, "POST", "/v1/evaluate", { key: t.keys.scoped, body: { environment: "development", context: { key } } })
      expect(reply.status, reply.text).toBe(200)
      return (reply.body as { flags: Record<string, { variationKey: string }> }).flags["beta"]!.variationKey
    }

    beforeAll(async () => {
      // The storage's own key list repository, its reads held while the latch is armed (the
      // snapshots are built over the ports, so the hold goes in below them).
      const ports = backend === "sqlite" ? Ports.sqlPorts(freshSqlite()) : Ports.postgresPorts(freshPostgres())
      const held = () => Effect.promise(() => (latch.armed ? latch.wait() : Promise.resolve()))
      const holding = Layer.map(ports, (ctx) => {
        const keys = Context.get(ctx, SegmentKeyRepository)
        return Context.add(ctx, SegmentKeyRepository, {
          ...keys,
          // Both ways a list is read: whole, page by page, or as the change since the version the
          // server holds (a PATCH is applied from the change log).
          page: (...args) => Effect.zipRight(held(), keys.page(...args)),
          changes: (...args) => Effect.zipRight(held(), keys.changes(...args))
        })
      })
      t = await startServer(StorageLayer.withUseCases(holding))
      expect((await admin("POST", "/v1/projects/p1/segments", { key: "testers", name: "Testers", conditions: [] })).status).toBe(201)
      expect((await admin("PATCH", `${SEGMENT}/keys/included`, { add: ["old-tester"] })).status).toBe(200)
      const flag = { key: "beta", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
      expect((await admin("POST", "/v1/projects/p1/flags", flag)).status).toBe(201)
      const targeting = {
        environment: "development",
        enabled: true,
        defaultVariationKey: "off",
        offVariationKey: "off",
        rules: [{ conditions: [{ operator: "inSegment", values: ["testers"] }], variationKey: "on" }]
      }
      expect((await admin("PUT", "/v1/projects/p1/flags/beta/targeting", targeting)).status).toBe(200)
    }, 120_000)
    afterAll(async () => {
      latch.release()
      await t?.close()
    })

    it("answers from the previous list while the new one is read, then from the new one", async () => {
      expect(await served("old-tester")).toBe("on")
      latch.armed = true
      expect((await admin("PATCH", `${SEGMENT}/keys/included`, { add: ["new-tester"], remove: ["old-tester"] })).status).toBe(200)
      // Answered while the list's read is held (before the fix, this request waited for it).
      expect(await served("old-tester")).toBe("on")
      await latch.entered
      expect(await served("new-tester")).toBe("off")
      latch.release()
      await vi.waitFor(async () => expect(await served("new-tester")).toBe("on"), { timeout: 10_000 })
      expect(await served("old-tester")).toBe("off")
    })

    it("a change that touches no list takes effect at the next evaluation", async () => {
      expect(await served("new-tester")).toBe("on")
      const off = { environment: "development", enabled: false, defaultVariationKey: "off", offVariationKey: "off", rules: [] }
      expect((await admin("PUT", "/v1/projects/p1/flags/beta/targeting", off)).status).toBe(200)
      expect(await served("new-tester")).toBe("off")
    })
  })
}
