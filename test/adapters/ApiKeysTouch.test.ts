import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, TestClock } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import { ApiKeys, TOUCH_INTERVAL_MS } from "../../src/services/auth/ApiKeys.js"

describe("ApiKeys.authenticate", () => {
  it.effect("records lastUsedAt at most once per interval, so reads do not each become a write", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const repo = yield* ApiKeyRepository
      yield* TestClock.setTime(Date.parse("2026-11-22T00:00:00.000Z"))
      const { apiKey, secret } = yield* keys.create({ type: "server" })
      const lastUsed = Effect.map(repo.get(apiKey.id), (k) => Option.getOrThrow(k).lastUsedAt)
      yield* keys.authenticate(secret)
      expect(yield* lastUsed).toBe("2026-11-22T00:00:00.000Z")
      yield* TestClock.adjust(TOUCH_INTERVAL_MS - 1)
      const seen = yield* keys.authenticate(secret)
      expect(Option.map(seen, (k) => k.lastUsedAt)).toEqual(Option.some("2026-11-22T00:00:00.000Z"))
      expect(yield* lastUsed).toBe("2026-11-22T00:00:00.000Z")
      yield* TestClock.adjust(1)
      yield* keys.authenticate(secret)
      expect(yield* lastUsed).toBe("2026-11-22T00:01:00.000Z")
    }).pipe(Effect.provide(StorageLayer.memoryStorage)))
})
