import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as IdGenerator from "../../src/ports/IdGenerator.js"

describe("IdGenerator", () => {
  it.effect("production ids are UUIDv7 stamped with the Clock, unique", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-11-22T01:02:03.456Z"))
      const ids = yield* Effect.replicateEffect(IdGenerator.IdGenerator.pipe(Effect.flatMap((g) => g.next)), 1000)
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(new Set(ids).size).toBe(1000)
      const millis = parseInt(ids[0]!.replace(/-/g, "").slice(0, 12), 16)
      expect(new Date(millis).toISOString()).toBe("2026-11-22T01:02:03.456Z")
    }).pipe(Effect.provide(IdGenerator.layer)))

  it.effect("the deterministic layer counts from 1 per layer instance", () =>
    Effect.gen(function* () {
      const next = Effect.flatMap(IdGenerator.IdGenerator, (g) => g.next)
      const first = yield* Effect.provide(Effect.all([next, next]), IdGenerator.layerDeterministic("t"))
      const again = yield* Effect.provide(next, IdGenerator.layerDeterministic("t"))
      expect(first).toEqual(["t-000001", "t-000002"])
      expect(again).toBe("t-000001")
    }))
})
