/**
 * Two connections on one SQLite file, as two processes have them (each client here has its own
 * writer and reader threads): a transaction that reads before it writes, while the other writes
 * in between, must wait for the lock instead of failing. A transaction that began with a plain
 * (deferred) `BEGIN` holds only a read snapshot; when another connection commits first, SQLite
 * refuses its first write at once with `database is locked` (SQLITE_BUSY_SNAPSHOT), busy timeout
 * or not. The scheduler and the migrations read first, so this is what processes sharing a file met.
 *
 * And a key lookup that records the key's use (a write, once a minute) waits for such a lock: it
 * must not then answer with what it read before the other process committed a revocation.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { describe as describe, expect, it } from "@effect/vitest"
import { Cause, Context, Effect, Exit, Fiber, Layer, Option } from "effect"
import * as SqliteStorage from "../../adapters/sql-sqlite/SqliteStorage.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { freshSqliteFile } from "../fixtures/databases.js"

/** "committed", or the driver's own message (SqlError keeps it as its cause). */
const outcome = <E>(exit: Exit.Exit<unknown, E>): string =>
  Exit.isSuccess(exit) ? "committed" : String(Cause.squash(exit.cause) instanceof Error ? driverMessage(Cause.squash(exit.cause)) : exit.cause)

const driverMessage = (error: unknown): string => {
  const cause = (error as { cause?: unknown }).cause
  return cause instanceof Error ? cause.message : (error as Error).message
}

const clientOn = (filename: string) =>
  Effect.map(Layer.build(SqliteStorage.layer({ filename })), (context) => context.unsafeMap.get(SqlClient.key) as SqlClient)

describe("SQLite: two connections on one file", () => {
  it.live("a transaction that reads, then writes after the other connection wrote, waits instead of failing", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const filename = yield* freshSqliteFile
        const a = yield* clientOn(filename)
        const b = yield* clientOn(filename)
        yield* a`CREATE TABLE t (x INTEGER)`

        const readThenWrite = a.withTransaction(
          Effect.gen(function* () {
            yield* a`SELECT count(*) AS n FROM t`
            yield* Effect.sleep("300 millis")
            yield* a`INSERT INTO t (x) VALUES (1)`
          })
        )
        const first = yield* Effect.fork(Effect.exit(readThenWrite))
        yield* Effect.sleep("100 millis")
        const second = yield* Effect.exit(b`INSERT INTO t (x) VALUES (2)`)
        const firstExit = yield* Fiber.join(first)

        expect(outcome(firstExit)).toBe("committed")
        expect(outcome(second)).toBe("committed")
        const rows = yield* b`SELECT x FROM t ORDER BY x`
        expect(rows.map((row) => row.x)).toEqual([1, 2])
      })
    )
  )
})

describe("SQLite: authenticating while another process revokes the key", () => {
  it.live("a lookup that waited for the other process's lock answers what it committed (the key is revoked)", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const filename = yield* freshSqliteFile
        const server = yield* Layer.build(StorageLayer.fromDatabaseUrl(`sqlite:${filename}`, { listen: false }))
        const keys = Context.get(server, ApiKeys)
        // A key never used: authenticating it records its first use, a write.
        const { apiKey, secret } = yield* keys.create({ type: "server" })
        const other = yield* clientOn(filename)

        // The other process revokes the key in a transaction that holds the write lock a while.
        const revoking = yield* Effect.fork(
          other.withTransaction(
            Effect.gen(function* () {
              yield* other`UPDATE flagport_api_keys SET revoked_at = ${new Date().toISOString()} WHERE id = ${apiKey.id}`
              yield* Effect.sleep("300 millis")
            })
          )
        )
        yield* Effect.sleep("100 millis")
        const found = yield* keys.authenticate(secret)
        yield* Fiber.join(revoking)
        expect(Option.map(found, (key) => key.id)).toEqual(Option.none())
      })
    )
  )
})
