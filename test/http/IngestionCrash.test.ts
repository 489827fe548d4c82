/**
 * A `flagport serve` child killed with SIGKILL while clients send exposures as fast as they can,
 * on SQLite and on PostgreSQL: every exposure the server acknowledged (202) is in its unit's row
 * afterwards, since the group commit answers a request only once the round that wrote it has
 * committed. Then every batch, acknowledged or not, is resent to a restarted server: the
 * acknowledged ones answer `duplicate: true`, and each unit is stored exactly once.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { keyLines, type ServerProcess, startServer } from "../cli/Process.js"
import { freshPostgresUrl, freshSqliteFile } from "../fixtures/databases.js"
import { perTest } from "../fixtures/perTest.js"
import { request } from "./fixtures.js"

const TIMEOUT = 180_000
const SENDERS = 8
const PER_BATCH = 100

const { closers, scoped } = perTest()

const serve = async (args: ReadonlyArray<string>, databaseUrl: string): Promise<ServerProcess> => {
  const child = await startServer(args, { DATABASE_URL: databaseUrl })
  closers.push(() => {
    if (child.child.exitCode === null) child.child.kill("SIGKILL")
  })
  return child
}

const databases = {
  sqlite: Effect.map(freshSqliteFile, (file) => `sqlite:${file}`),
  postgres: freshPostgresUrl
}

const ROLLOUT = { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] }

/** A flag whose production rule `half` splits units, and a running experiment on it; answers its id. */
const givenExperiment = async (url: string, key: string): Promise<string> => {
  const flag = { key: "crash", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
  expect((await request(url, "POST", "/v1/projects/default/flags", { key, body: flag })).status).toBe(201)
  const targeting = { environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "half", conditions: [], rollout: ROLLOUT }] }
  expect((await request(url, "PUT", "/v1/projects/default/flags/crash/targeting", { key, body: targeting })).status).toBe(200)
  const experiment = {
    key: "crash-exp",
    flagKey: "crash",
    environment: "production",
    ruleId: "half",
    controlVariationKey: "off",
    metrics: [{ key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" }]
  }
  expect((await request(url, "POST", "/v1/projects/default/experiments", { key, body: experiment })).status).toBe(201)
  const started = await request(url, "POST", "/v1/projects/default/experiments/crash-exp/start", { key })
  expect(started.status, started.text).toBe(200)
  return (started.body as { id: string }).id
}

const batchOf = (sender: number, n: number, timestamp: string) => ({
  environment: "production",
  batchId: `s${sender}-${n}`,
  exposures: Array.from({ length: PER_BATCH }, (_, i) => ({
    flagKey: "crash",
    variationKey: i % 2 === 0 ? "on" : "off",
    ruleId: "half",
    unit: `s${sender}-${n}-${i}`,
    timestamp
  }))
})

const send = (url: string, key: string, body: unknown) =>
  fetch(`${url}/v1/exposures`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as { duplicate?: boolean } }))

for (const [backend, database] of Object.entries(databases)) {
  describe(`ingestion killed mid-flight on ${backend}`, () => {
    it("loses nothing it acknowledged; a resend of every batch after a restart counts each unit once", { timeout: TIMEOUT }, async () => {
      const databaseUrl = await scoped(database)
      const first = await serve(["serve", "--init"], databaseUrl)
      const { SERVER_KEY, CLIENT_KEY } = keyLines(first.output().stdout)
      const experimentId = await givenExperiment(first.baseUrl, SERVER_KEY!)
      await new Promise((resolve) => setTimeout(resolve, 20))
      const timestamp = new Date().toISOString()

      // Senders post batches back to back; the server is killed while they do.
      const sent: Array<ReturnType<typeof batchOf>> = []
      const acknowledged = new Set<string>()
      let killed = false
      const sender = async (s: number) => {
        for (let n = 0; !killed; n++) {
          const body = batchOf(s, n, timestamp)
          sent.push(body)
          try {
            const answer = await send(first.baseUrl, CLIENT_KEY!, body)
            if (answer.status === 202) acknowledged.add(body.batchId)
          } catch {
            return // the connection died with the server
          }
        }
      }
      const running = Array.from({ length: SENDERS }, (_, s) => sender(s))
      // Killed once enough was acknowledged (a count, not a time: a loaded machine acknowledges slower).
      for (const until = performance.now() + 60_000; acknowledged.size < 30 && performance.now() < until;) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      killed = true
      first.child.kill("SIGKILL")
      await first.exited
      await Promise.all(running)
      expect(acknowledged.size).toBeGreaterThan(20)

      const stored = async () => {
        const rows = await Effect.runPromise(
          Effect.scoped(Effect.flatMap(ExperimentUnitRepository, (repo) => repo.units(experimentId))).pipe(
            Effect.provide(StorageLayer.fromDatabaseUrl(databaseUrl))
          )
        )
        return new Map(rows.map((row) => [row.unit, row]))
      }
      const afterKill = await stored()
      const lost = sent.filter((b) => acknowledged.has(b.batchId)).flatMap((b) => b.exposures).filter((e) => afterKill.get(e.unit)?.variationKey !== e.variationKey)
      expect(lost.length, `acknowledged but not stored: ${lost.slice(0, 3).map((e) => e.unit).join(", ")}`).toBe(0)
      console.log(`${backend}: ${acknowledged.size} batches acknowledged of ${sent.length} sent before the kill; ${afterKill.size} units stored`)

      // Restarted: every batch again. The acknowledged ones are duplicates; the rest are written now.
      const second = await serve(["serve"], databaseUrl)
      for (const body of sent) {
        const answer = await send(second.baseUrl, CLIENT_KEY!, body)
        expect(answer.status).toBe(202)
        if (acknowledged.has(body.batchId)) expect(answer.body.duplicate).toBe(true)
      }
      const afterResend = await stored()
      expect(afterResend.size).toBe(sent.length * PER_BATCH)
      expect([...afterResend.values()].every((row) => row.variationsSeen === 1)).toBe(true)
    })
  })
}
