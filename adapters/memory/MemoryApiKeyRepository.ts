import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ApiKey } from "../../src/domain/auth/ApiKey.js"
import { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import { DuplicateKey, NotFound } from "../../src/ports/StorageError.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"

/** The reference ApiKeyRepository: keys by id with the hash of their secret (never the secret). */

export const layer = Layer.effect(
  ApiKeyRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, { apiKey: ApiKey; hash: string }>>("api_keys", new Map())
    const setField = (id: string, f: (key: ApiKey) => ApiKey) =>
      table.modify((map) => {
        const row = map.get(id)
        if (row === undefined) return [false, map]
        return [true, new Map(map).set(id, { ...row, apiKey: f(row.apiKey) })]
      })
    return ApiKeyRepository.of({
      insert: (apiKey, hash) =>
        table.modify((map) => {
          if (map.has(apiKey.id) || Array.from(map.values()).some((row) => row.hash === hash)) return [false, map]
          return [true, new Map(map).set(apiKey.id, { apiKey: jsonCopy(apiKey), hash })]
        }).pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new DuplicateKey({ entity: "api key", key: apiKey.id }))))),
      list: () => Effect.map(table.get, (map) => Array.from(map.values(), (row) => row.apiKey)),
      get: (id) => Effect.map(table.get, (map) => Option.map(Option.fromNullable(map.get(id)), (row) => row.apiKey)),
      liveMadeBy: (userId) =>
        Effect.map(table.get, (map) => Array.from(map.values(), (row) => row.apiKey).filter((key) => key.createdBy === userId && key.revokedAt === null)),
      findByHash: (hash) =>
        Effect.map(table.get, (map) =>
          Option.map(Option.fromNullable(Array.from(map.values()).find((row) => row.hash === hash)), (row) => row.apiKey)
        ),
      revoke: (id, at) =>
        setField(id, (key) => (key.revokedAt === null ? { ...key, revokedAt: at } : key)).pipe(
          Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new NotFound({ entity: "api key", key: id }))))
        ),
      touch: (id, at) =>
        table.modify((map) => {
          const row = map.get(id)
          if (row === undefined || row.apiKey.revokedAt !== null) return [false, map]
          return [true, new Map(map).set(id, { ...row, apiKey: { ...row.apiKey, lastUsedAt: at } })]
        })
    })
  })
)
