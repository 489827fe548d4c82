import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import type { StorageError } from "./StorageError.js"

export interface TransactorShape {
  /**
   * Runs `self` in one transaction: every port call made inside it commits together when `self`
   * succeeds and is rolled back when it fails (with an error or a defect) or is interrupted.
   * Nesting is allowed: an inner call becomes a savepoint, so an inner failure that the outer
   * effect recovers from undoes only the inner writes. Fails with `StorageError` when the
   * backend cannot begin or commit.
   */
  readonly withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StorageError, R>
  /**
   * Runs `effect` once the outermost transaction open in this fiber has committed, or at once
   * when none is open. Dropped when that transaction (or the savepoint it was asked from) is
   * rolled back. For announcements that must never describe a write that did not happen.
   */
  readonly afterCommit: (effect: Effect.Effect<void>) => Effect.Effect<void>
  /**
   * `withTransaction`, for writes that would wait for each other anyway (the writes to one
   * project, which lock it): writes of the same `key` that arrive together may be committed in ONE
   * transaction (group commit), each in a savepoint of its own. Each still answers only once that
   * transaction has committed; one that fails is rolled back alone (its savepoint) without failing
   * the others; if the shared commit itself fails, each is retried alone in a transaction of its
   * own. Announcements (`afterCommit`) run in commit order. Inside an open transaction it is
   * `withTransaction` (a savepoint), and backends without grouping run it as `withTransaction`.
   */
  readonly withGroupedTransaction: <A, E, R>(key: string, self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StorageError, R>
}

/**
 * How a backend commits a group (`withGroupedTransaction`): `attempt` runs the write (with its
 * hooks collected afresh each time it is run), `announce` runs the hooks of the attempt that
 * committed; the backend calls it once the write is durable, in commit order.
 */
export type GroupedTransaction = <A, E, R>(
  key: string,
  attempt: Effect.Effect<A, E, R>,
  announce: Effect.Effect<void>
) => Effect.Effect<A, E | StorageError, R>

/** The transaction boundary. Every write use case runs inside exactly one `withTransaction`. */
export class Transactor extends Context.Tag("@flagport/ports/Transactor")<Transactor, TransactorShape>() {}

/**
 * A Transactor over a backend's `withTransaction` (which handles commits, rollbacks and
 * savepoints): adds the `afterCommit` bookkeeping, the same for every backend. Each nesting level
 * collects its hooks; a level that succeeds hands them to the level around it, the outermost
 * runs them after its commit, and a level that fails drops its own.
 */
export const withCommitHooks = (withTransaction: TransactorShape["withTransaction"], grouped?: GroupedTransaction): TransactorShape => {
  const hooks = FiberRef.unsafeMake<Array<Effect.Effect<void>> | null>(null)
  const runHooks = (mine: ReadonlyArray<Effect.Effect<void>>) => Effect.forEach(mine, (hook) => hook, { discard: true })
  const transaction = <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.flatMap(FiberRef.get(hooks), (outer) => {
      const mine: Array<Effect.Effect<void>> = []
      const run = withTransaction(Effect.locally(self, hooks, mine))
      return outer === null
        ? Effect.tap(run, () => runHooks(mine))
        : Effect.tap(run, () => Effect.sync(() => void outer.push(...mine)))
    })
  return {
    withTransaction: transaction,
    afterCommit: (effect) =>
      Effect.flatMap(FiberRef.get(hooks), (open) => (open === null ? effect : Effect.sync(() => void open.push(effect)))),
    withGroupedTransaction: <A, E, R>(key: string, self: Effect.Effect<A, E, R>): Effect.Effect<A, E | StorageError, R> =>
      Effect.flatMap(FiberRef.get(hooks), (outer) => {
        if (outer !== null || grouped === undefined) return transaction(self)
        // Each attempt (a retry alone after a failed group commit is another) collects its own hooks.
        let mine: Array<Effect.Effect<void>> = []
        const attempt = Effect.suspend(() => {
          mine = []
          return Effect.locally(self, hooks, mine)
        })
        return grouped(key, attempt, Effect.suspend(() => runHooks(mine)))
      })
  }
}
