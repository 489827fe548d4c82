/**
 * `GET /v1/projects/{p}/events` across processes: a `flagport serve` child beside this test's
 * in-process server, on one PostgreSQL and on one SQLite file. A write made through either
 * process (a flag, a targeting change, a schedule, which announces nothing on the change feed)
 * arrives on the other's stream with its actor, and a key revoked through one ends its stream on
 * the other.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { type ServerProcess, startServer as startProcess } from "../cli/Process.js"
import { freshPostgresUrl, freshSqliteFile } from "../fixtures/databases.js"
import { perTest } from "../fixtures/perTest.js"
import { request, startServer } from "./fixtures.js"
import { openStream, type SseEvent, sleep } from "./sse.js"

const TIMEOUT = 180_000

const { closers, scoped } = perTest()

const serveProcess = async (env: Record<string, string>): Promise<ServerProcess> => {
  const child = await startProcess(["serve"], env)
  closers.push(() => {
    if (child.child.exitCode === null) child.child.kill("SIGKILL")
  })
  return child
}

const dataOf = (event: SseEvent) => JSON.parse(event.data) as Record<string, any>

const databases = {
  postgres: freshPostgresUrl,
  sqlite: Effect.map(freshSqliteFile, (file) => `sqlite:${file}`)
}

for (const [backend, database] of Object.entries(databases)) {
  describe(`management events across processes on ${backend}`, () => {
    it("each process's writes reach the other's stream, with the actor; a revocation through one ends the stream on the other", { timeout: TIMEOUT }, async () => {
      const databaseUrl = await scoped(database)
      const first = await startServer(StorageLayer.fromDatabaseUrl(databaseUrl))
      closers.push(first.close)
      const second = await serveProcess({ DATABASE_URL: databaseUrl })
      const key = await first.run(Effect.flatMap(ApiKeys, (keys) => keys.create({ type: "server", projectId: "p1", name: "watcher" })))

      const onSecond = await openStream(second.baseUrl, "/v1/projects/p1/events", { authorization: `Bearer ${key.secret}` })
      closers.push(onSecond.close)
      expect(onSecond.status).toBe(200)
      const onFirst = await openStream(first.url, "/v1/projects/p1/events", { authorization: `Bearer ${first.keys.scoped}` })
      closers.push(onFirst.close)
      await onSecond.event(0)
      await onFirst.event(0)

      // A flag created through the first process: on the second's stream within 2 s.
      const createdAt = performance.now()
      const created = await request(first.url, "POST", "/v1/projects/p1/flags", {
        key: first.keys.scoped,
        body: { key: "across", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
      })
      expect(created.status).toBe(201)
      const event = dataOf(await onSecond.event(1, 2_000))
      const delay = Math.round(performance.now() - createdAt)
      expect(event).toMatchObject({ kind: "flag.created", flagKeys: ["across"], version: 1, actor: { type: "key" } })

      // Targeting through the second process: on the first's stream, with the configuration's new version.
      const targeted = await request(second.baseUrl, "PUT", "/v1/projects/p1/flags/across/targeting", {
        key: key.secret,
        body: { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
      })
      expect(targeted.status, targeted.text).toBe(200)
      expect(dataOf(await onFirst.event(2, 2_000))).toMatchObject({
        kind: "targeting.updated",
        environments: ["production"],
        configVersions: { production: 2 },
        actor: { type: "key", keyId: key.apiKey.id, keyName: "watcher" }
      })

      // A schedule serves nothing new and announces nothing: the second still hears of it.
      const scheduled = await request(first.url, "POST", "/v1/projects/p1/flags/across/schedules", {
        key: first.keys.scoped,
        body: { environment: "development", at: new Date(Date.now() + 3_600_000).toISOString(), targeting: { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] } }
      })
      expect(scheduled.status, scheduled.text).toBe(201)
      const events = async () => onSecond.events.map((e) => dataOf(e).kind as string | undefined)
      const deadline = Date.now() + 3_000
      while (!(await events()).includes("schedule.created") && Date.now() < deadline) await sleep(50)
      expect(await events()).toEqual([undefined, "flag.created", "targeting.updated", "schedule.created"])
      expect(dataOf(onSecond.events[3]!)).toMatchObject({ flagKeys: ["across"], environments: ["development"] })

      // Revoked through the first process: the second ends the key's stream.
      await first.run(Effect.flatMap(ApiKeys, (keys) => keys.revoke(key.apiKey.id)))
      expect(await Promise.race([onSecond.ended.then(() => "ended"), sleep(3_000).then(() => "open")])).toBe("ended")
      expect(await Promise.race([onFirst.ended.then(() => "ended"), sleep(500).then(() => "open")])).toBe("open")
      console.log(`${backend}: a write through one process reached the other's events stream after ${delay} ms`)
    })
  })
}
