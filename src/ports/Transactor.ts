import { Context, type Effect } from "effect"
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
}

/** The transaction boundary. Every write use case runs inside exactly one `withTransaction`. */
export class Transactor extends Context.Tag("@flagport/ports/Transactor")<Transactor, TransactorShape>() {}
