import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import * as MemoryDb from "../../adapters/memory/MemoryDb.js"

describe("MemoryDb", () => {
  it.effect("uncommitted writes are invisible outside their transaction; commit publishes them", () =>
    Effect.gen(function* () {
      const db = yield* MemoryDb.make
      const ref = db.makeRef("cell", 0)
      const written = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const tx = yield* Effect.fork(
        db.withTransaction(
          Effect.gen(function* () {
            yield* ref.update((n) => n + 1)
            expect(yield* ref.get).toBe(1)
            yield* Deferred.succeed(written, undefined)
            yield* Deferred.await(release)
          })
        )
      )
      yield* Deferred.await(written)
      expect(yield* ref.get).toBe(0)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(tx)
      expect(yield* ref.get).toBe(1)
      expect(db.dump()).toEqual({ cell: 1 })
    }))

  it.effect("interruption rolls back; transactions run one at a time", () =>
    Effect.gen(function* () {
      const db = yield* MemoryDb.make
      const ref = db.makeRef("cell", 0)
      const fiber = yield* Effect.fork(db.withTransaction(Effect.zipRight(ref.update((n) => n + 1), Effect.never)))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(fiber)
      expect(yield* ref.get).toBe(0)
      // 50 concurrent read-modify-write transactions with a yield in between lose nothing.
      yield* Effect.forEach(
        Array.from({ length: 50 }),
        () =>
          db.withTransaction(
            Effect.gen(function* () {
              const n = yield* ref.get
              yield* Effect.yieldNow()
              yield* ref.update(() => n + 1)
            })
          ),
        { concurrency: "unbounded" }
      )
      expect(yield* ref.get).toBe(50)
    }))
})
