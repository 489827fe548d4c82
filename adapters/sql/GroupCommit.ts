/**
 * Group commit for `Transactor.withGroupedTransaction` (src/ports/Transactor.ts) over an
 * @effect/sql client: the writes of one key (a project: they lock its row, so they would wait for
 * each other anyway) that arrive while a transaction of that key is open join it, each in a
 * savepoint of its own, and ONE commit (one fsync, one lock taken) covers them all.
 *
 * One committer fiber per key at a time: it begins the transaction, then admits the waiting writes
 * one after another (each runs in its own fiber, with its own context, on the transaction's
 * connection, inside `SAVEPOINT`), up to MAX_MEMBERS, and commits once none is waiting. Then:
 * - a write that failed was rolled back to its savepoint and answered its failure at once: the
 *   others go on;
 * - if the commit succeeded, every other write answers its value, its announcements
 *   (`afterCommit`) run in commit order (each waits for the write committed before it);
 * - if the transaction failed as a whole (the commit, or the connection), every write of it that
 *   had succeeded is retried alone, in a transaction of its own, as if it had never been grouped.
 *
 * A write's savepoint is not released: the next write's nests in it, and one statement per write
 * is saved (a failed write rolls back to its own, the latest of that name). Under no load a group
 * is one write: BEGIN, SAVEPOINT, its statements, COMMIT (one statement more than alone).
 */
import { SqlClient } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Scope from "effect/Scope"
import type { GroupedTransaction } from "../../src/ports/Transactor.js"
import { toStorageError } from "./SqlSupport.js"

/**
 * Writes per transaction at most. PostgreSQL keeps a transaction's first 64 subtransactions
 * (savepoints that wrote) in shared memory; past that, other sessions' snapshots get slower.
 */
export const MAX_MEMBERS = 32

interface Member {
  /** The transaction's connection, or null: run alone (the group could not begin). */
  readonly admit: Deferred.Deferred<Connection | null>
  /** The write has left the connection (its savepoint kept, or rolled back), or gave up. */
  readonly done: Deferred.Deferred<void>
  /** Whether the group's transaction committed. */
  readonly committed: Deferred.Deferred<boolean>
  /** Its announcements have run (or it has none): the next write's may run. */
  readonly announced: Deferred.Deferred<void>
}

interface Group {
  readonly waiting: Array<Member>
  running: boolean
  /** The latest write's `announced`: the next write to join waits for it before announcing. */
  last: Deferred.Deferred<void> | undefined
}

const mapSqlError = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.mapError(self, (error) => (error instanceof SqlError ? toStorageError(error) : error)) as Effect.Effect<A, Exclude<E, SqlError> | ReturnType<typeof toStorageError>, R>

export const make: Effect.Effect<GroupedTransaction, never, SqlClient.SqlClient | Scope.Scope> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const scope = yield* Effect.scope
  const groups = new Map<string, Group>()

  /** Takes the next waiting write, or ends the committer when none is left (one step: no write is missed). */
  const next = (group: Group, taken: number) => Effect.sync(() => (taken >= MAX_MEMBERS ? undefined : group.waiting.shift()))

  const committer = (group: Group): Effect.Effect<void> =>
    Effect.gen(function* () {
      for (;;) {
        const first = yield* Effect.sync(() => {
          const member = group.waiting.shift()
          if (member === undefined) group.running = false
          return member
        })
        if (first === undefined) return
        const batch: Array<Member> = []
        const exit = yield* Effect.exit(
          sql.withTransaction(
            Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (open) =>
              Effect.gen(function* () {
                // Always there: this runs inside the transaction just begun.
                if (open._tag === "None") return yield* Effect.dieMessage("GroupCommit: no transaction connection")
                const [connection] = open.value
                for (let member: Member | undefined = first; member !== undefined; member = yield* next(group, batch.length)) {
                  batch.push(member)
                  yield* Deferred.succeed(member.admit, connection)
                  yield* Deferred.await(member.done)
                }
              }))
          )
        )
        // The group could not begin: the first write was never admitted, it goes alone.
        if (batch.length === 0) yield* Deferred.succeed(first.admit, null)
        for (const member of batch) yield* Deferred.succeed(member.committed, Exit.isSuccess(exit))
      }
    }).pipe(
      // Stopped (the layer closing): no write is left waiting; each still waiting goes alone.
      Effect.onInterrupt(() =>
        Effect.forEach(group.waiting.splice(0), (member) => Deferred.succeed(member.admit, null), { discard: true }).pipe(
          Effect.zipRight(Effect.sync(() => void (group.running = false)))
        ))
    )

  const grouped: GroupedTransaction = <A, E, R>(key: string, attempt: Effect.Effect<A, E, R>, announce: Effect.Effect<void>) =>
    Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (open) =>
      // Inside a transaction a host opened itself: a savepoint of it, as `withTransaction` would be.
      open._tag === "Some" ? Effect.tap(mapSqlError(sql.withTransaction(attempt)), () => announce) : inGroup(key, attempt, announce))

  const inGroup = <A, E, R>(key: string, attempt: Effect.Effect<A, E, R>, announce: Effect.Effect<void>) =>
    Effect.uninterruptibleMask((restore) =>
      Effect.gen(function* () {
        const member: Member = {
          admit: yield* Deferred.make<Connection | null>(),
          done: yield* Deferred.make<void>(),
          committed: yield* Deferred.make<boolean>(),
          announced: yield* Deferred.make<void>()
        }
        const { previous, start } = yield* Effect.sync(() => {
          let group = groups.get(key)
          if (group === undefined) groups.set(key, (group = { waiting: [], running: false, last: undefined }))
          const previous = group.last
          group.last = member.announced
          group.waiting.push(member)
          const start = !group.running
          group.running = true
          return { previous, start: start ? group : undefined }
        })
        if (start !== undefined) yield* Effect.forkIn(committer(start), scope)

        /** Alone, in a transaction of its own, announced in turn. */
        const alone = Effect.tap(restore(mapSqlError(sql.withTransaction(attempt))), () =>
          Effect.zipRight(previous === undefined ? Effect.void : Deferred.await(previous), announce))

        return yield* Effect.gen(function* () {
          const connection = yield* restore(Deferred.await(member.admit))
          if (connection === null) {
            yield* Deferred.succeed(member.done, undefined)
            return yield* alone
          }
          // In its savepoint on the group's connection; a failure rolls back to it (and is answered now).
          const exit = yield* Effect.exit(
            restore(mapSqlError(sql.withTransaction(attempt))).pipe(
              Effect.provideService(SqlClient.TransactionConnection, [connection, 0] as const)
            )
          )
          yield* Deferred.succeed(member.done, undefined)
          if (Exit.isFailure(exit)) return yield* exit
          if (!(yield* Deferred.await(member.committed))) return yield* alone
          if (previous !== undefined) yield* Deferred.await(previous)
          yield* announce
          return exit.value
        }).pipe(
          // Whatever happened, the committer and the next write's announcements are not left waiting.
          Effect.ensuring(Effect.zipRight(Deferred.succeed(member.done, undefined), Deferred.succeed(member.announced, undefined)))
        )
      })
    )

  return grouped
})
