/**
 * The index of measured flags across processes: a `flagport serve` child beside this test's
 * in-process server, on one PostgreSQL and on one SQLite file. An experiment started through the
 * in-process server makes the child record its rule's units within about a second, and stopping it
 * there makes the child stop, with no database read per evaluation (the change feed carries it).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { startServer as startProcess } from "../cli/Process.js"
import { freshPostgresUrl, freshSqliteFile } from "../fixtures/databases.js"
import { perTest } from "../fixtures/perTest.js"
import { request, startServer } from "./fixtures.js"
import { sleep } from "./sse.js"

const TIMEOUT = 180_000
/** The bound the brief sets ("about a second"), with room for a loaded test machine. */
const WITHIN_MS = 1_500

const { closers, scoped } = perTest()

const databases = {
  postgres: freshPostgresUrl,
  sqlite: Effect.map(freshSqliteFile, (file) => `sqlite:${file}`)
}

const ROLLOUT = { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] }

for (const [backend, database] of Object.entries(databases)) {
  describe(`server-recorded exposures across processes on ${backend}`, () => {
    it("an experiment started or stopped through one process starts or stops the other's recording within about a second", { timeout: TIMEOUT }, async () => {
      const databaseUrl = await scoped(database)
      const first = await startServer(StorageLayer.fromDatabaseUrl(databaseUrl))
      closers.push(first.close)
      const child = await startProcess(["serve"], { DATABASE_URL: databaseUrl })
      closers.push(() => {
        if (child.child.exitCode === null) child.child.kill("SIGKILL")
      })
      const key = first.keys.global
      const flag = { key: "across", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
      expect((await request(first.url, "POST", "/v1/projects/p1/flags", { key, body: flag })).status).toBe(201)
      const targeting = { environment: "development", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "half", conditions: [], rollout: ROLLOUT }] }
      expect((await request(first.url, "PUT", "/v1/projects/p1/flags/across/targeting", { key, body: targeting })).status).toBe(200)
      const experiment = {
        key: "across-exp",
        flagKey: "across",
        environment: "development",
        ruleId: "half",
        controlVariationKey: "off",
        metrics: [{ key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" }]
      }
      expect((await request(first.url, "POST", "/v1/projects/p1/experiments", { key, body: experiment })).status).toBe(201)

      /** Evaluates on the child every 50 ms for `ms`, one new unit each time; answers when each was sent (ms since `from`). */
      const evaluateFor = async (prefix: string, from: number, ms: number) => {
        const sentAt = new Map<string, number>()
        for (let i = 0; performance.now() - from < ms; i++) {
          const unit = `${prefix}-${i}`
          sentAt.set(unit, performance.now() - from)
          const answer = await request(child.baseUrl, "GET", `/v1/flags/across/eval?environment=development&key=${unit}`, { key: first.keys.client })
          expect(answer.status).toBe(200)
          await sleep(50)
        }
        return sentAt
      }
      const recorded = async (id: string) => {
        await sleep(500) // the child's last round commits
        return new Set((await first.run(Effect.flatMap(ExperimentUnitRepository, (repo) => repo.units(id)))).map((row) => row.unit))
      }

      const started = await request(first.url, "POST", "/v1/projects/p1/experiments/across-exp/start", { key })
      const startedAt = performance.now()
      expect(started.status, started.text).toBe(200)
      const id = (started.body as { id: string }).id
      const before = await evaluateFor("start", startedAt, 3_000)
      const afterStart = await recorded(id)
      const firstRecorded = [...before].find(([unit]) => afterStart.has(unit))
      expect(firstRecorded, "the child never recorded").toBeDefined()
      // From the first recorded unit on, every one is recorded.
      expect([...before].filter(([, at]) => at >= firstRecorded![1]).every(([unit]) => afterStart.has(unit))).toBe(true)
      expect(firstRecorded![1]).toBeLessThan(WITHIN_MS)

      expect((await request(first.url, "POST", "/v1/projects/p1/experiments/across-exp/stop", { key })).status).toBe(200)
      const stoppedAt = performance.now()
      const after = await evaluateFor("stop", stoppedAt, 3_000)
      const afterStop = await recorded(id)
      const lastRecorded = [...after].filter(([unit]) => afterStop.has(unit)).map(([, at]) => at)
      expect(Math.max(0, ...lastRecorded)).toBeLessThan(WITHIN_MS)
      expect([...after].filter(([, at]) => at >= WITHIN_MS).some(([unit]) => afterStop.has(unit))).toBe(false)
      console.log(`${backend}: the child recorded from ${Math.round(firstRecorded![1])} ms after the start; its last unit after the stop at ${Math.round(Math.max(0, ...lastRecorded))} ms`)
    })
  })
}
