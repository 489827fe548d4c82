import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import type { TransactorShape } from "../../src/ports/Transactor.js"
import { Transactor, withCommitHooks } from "../../src/ports/Transactor.js"

/**
 * A cell of the in-memory database. Values are treated as immutable: writers replace them.
 * Inside a transaction a ref reads and writes the transaction's private copy; outside it reads
 * the committed value, and a write is its own tiny transaction.
 */
export interface TxRef<A> {
  readonly name: string
  readonly get: Effect.Effect<A>
  readonly modify: <B>(f: (a: A) => readonly [B, A]) => Effect.Effect<B>
  readonly update: (f: (a: A) => A) => Effect.Effect<void>
  /** The committed value, ignoring any open transaction (tests read "the raw table" with it). */
  readonly committed: () => A
}

export interface MemoryDbShape {
  /** Creates a cell that joins this database's transactions (each adapter makes its own cells). */
  readonly makeRef: <A>(name: string, initial: A) => TxRef<A>
  readonly withTransaction: TransactorShape["withTransaction"]
  /** Every cell's committed value by name. */
  readonly dump: () => Record<string, unknown>
}

/**
 * The shared in-memory database behind every memory adapter (the webhook adapter's cells join
 * it too), so that one transaction spans every port, as with SQL.
 *
 * Isolation: transactions take one global lock, so they run one at a time (serializable). A
 * transaction writes into a private map of ref -> value, published on success, dropped on
 * failure or interruption. A nested transaction is a savepoint: a copy of that map, restored
 * when the inner effect fails.
 */
export class MemoryDb extends Context.Tag("@flagport/adapters/memory/MemoryDb")<MemoryDb, MemoryDbShape>() {}

class Cell<A> {
  constructor(
    readonly name: string,
    public value: A
  ) {}
}

type Working = Map<Cell<unknown>, unknown>

export const make: Effect.Effect<MemoryDbShape> = Effect.gen(function* () {
  const lock = yield* Effect.makeSemaphore(1)
  const current = FiberRef.unsafeMake<Working | null>(null)
  const cells: Array<Cell<unknown>> = []

  const read = <A>(cell: Cell<A>, tx: Working | null): A =>
    tx !== null && tx.has(cell as Cell<unknown>) ? (tx.get(cell as Cell<unknown>) as A) : cell.value

  const makeRef = <A>(name: string, initial: A): TxRef<A> => {
    const cell = new Cell<A>(name, initial)
    cells.push(cell as Cell<unknown>)
    const modify = <B>(f: (a: A) => readonly [B, A]): Effect.Effect<B> =>
      Effect.flatMap(FiberRef.get(current), (tx) => {
        if (tx !== null) {
          return Effect.sync(() => {
            const [b, next] = f(read(cell, tx))
            tx.set(cell as Cell<unknown>, next)
            return b
          })
        }
        return lock.withPermits(1)(
          Effect.sync(() => {
            const [b, next] = f(cell.value)
            cell.value = next
            return b
          })
        )
      })
    return {
      name,
      get: Effect.map(FiberRef.get(current), (tx) => read(cell, tx)),
      modify,
      update: (f) => modify((a) => [undefined, f(a)] as const),
      committed: () => cell.value
    }
  }

  const withTransaction = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(current), (tx) => {
      if (tx !== null) {
        const savepoint = new Map(tx)
        return Effect.onExit(self, (exit) =>
          Exit.isFailure(exit)
            ? Effect.sync(() => {
                tx.clear()
                savepoint.forEach((value, cell) => tx.set(cell, value))
              })
            : Effect.void
        )
      }
      return lock.withPermits(1)(
        Effect.suspend(() => {
          const working: Working = new Map()
          return Effect.locally(self, current, working).pipe(
            Effect.tap(() =>
              Effect.sync(() => {
                working.forEach((value, cell) => {
                  cell.value = value
                })
              })
            )
          )
        })
      )
    })

  const dump = () => Object.fromEntries(cells.map((cell) => [cell.name, cell.value]))

  return { makeRef, withTransaction, dump }
})

/** A fresh, empty database and the Transactor over it. */
export const layer: Layer.Layer<MemoryDb | Transactor> = Layer.effectContext(
  Effect.map(make, (db) => Context.make(MemoryDb, db).pipe(Context.add(Transactor, withCommitHooks(db.withTransaction))))
)

/** Values go in and out as JSON, like in the SQL adapters, so no caller can alias stored state. */
export const jsonCopy = <A>(value: A): A => JSON.parse(JSON.stringify(value)) as A
