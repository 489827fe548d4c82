/**
 * Replicas of one deployment starting together on one empty PostgreSQL database (`npm start`,
 * i.e. `serve --init`, five at once): every process comes up healthy, and exactly one of them
 * seeds the database and prints keys. Repeated, because the race it guards against (two
 * processes creating the same table at once) does not lose every time.
 */
import { Effect, Exit, Scope } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { freshPostgresUrl } from "../fixtures/databases.js"
import { type ServerProcess, startServer, stopServer } from "./Process.js"

const REPLICAS = 5
const ROUNDS = 5

const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

describe("replicas starting together on an empty PostgreSQL database", () => {
  it(`${REPLICAS} processes, ${ROUNDS} times: all healthy, exactly one prints keys`, { timeout: 300_000 }, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const url = await Effect.runPromise(Scope.extend(freshPostgresUrl, scope))
      const started = await Promise.allSettled(Array.from({ length: REPLICAS }, () => startServer(["serve", "--init"], { DATABASE_URL: url })))
      const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []))
      try {
        expect(started.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : [])), `round ${round}`).toEqual([])
        const seeded = servers.filter((server: ServerProcess) => server.output().stdout.includes("SERVER_KEY="))
        expect(seeded, `round ${round}: processes that printed keys`).toHaveLength(1)
      } finally {
        await Promise.all(servers.map(stopServer))
      }
    }
  })
})
