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
}

/** The transaction boundary. Every write use case runs inside exactly one `withTransaction`. */
export class Transactor extends Context.Tag("@flagport/ports/Transactor")<Transactor, TransactorShape>() {}

/**
 * A Transactor over a backend's `withTransaction` (which handles commits, rollbacks and
 * savepoints): adds the `afterCommit` bookkeeping, the same for every backend. Each nesting level
 * collects its hooks; a level that succeeds hands them to the level around it, the outermost
 * runs them after its commit, and a level that fails drops its own.
 */
export const withCommitHooks = (withTransaction: TransactorShape["withTransaction"]): TransactorShape => {
  const hooks = FiberRef.unsafeMake<Array<Effect.Effect<void>> | null>(null)
  return {
    withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) =>
      Effect.flatMap(FiberRef.get(hooks), (outer) => {
        const mine: Array<Effect.Effect<void>> = []
        const run = withTransaction(Effect.locally(self, hooks, mine))
        return outer === null
          ? Effect.tap(run, () => Effect.forEach(mine, (hook) => hook, { discard: true }))
          : Effect.tap(run, () => Effect.sync(() => void outer.push(...mine)))
      }),
    afterCommit: (effect) =>
      Effect.flatMap(FiberRef.get(hooks), (open) => (open === null ? effect : Effect.sync(() => void open.push(effect))))
  }
}
