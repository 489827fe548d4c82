import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { SetupTokenRepository, type StoredSetupToken } from "../../src/ports/SetupTokenRepository.js"
import { MemoryDb } from "./MemoryDb.js"
import { insertNew } from "./MemoryTables.js"

/** The reference SetupTokenRepository: tokens by hash; a spend is one atomic modify of the table. */

export const layer = Layer.effect(
  SetupTokenRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, StoredSetupToken>>("setup_tokens", new Map())
    return SetupTokenRepository.of({
      insert: (token) => insertNew(table, token.hash, () => ({ ...token }), "setup token", token.userId),
      find: (hash, at) =>
        Effect.map(table.get, (map) => {
          const token = map.get(hash)
          return token === undefined || token.expiresAt <= at ? Option.none<string>() : Option.some(token.userId)
        }),
      spend: (hash, at) =>
        table.modify((map) => {
          const token = map.get(hash)
          if (token === undefined || token.expiresAt <= at) return [Option.none<string>(), map]
          const next = new Map(map)
          next.delete(hash)
          return [Option.some(token.userId), next]
        }),
      deleteForUser: (userId) =>
        table.modify((map) => {
          const next = new Map(Array.from(map).filter(([, token]) => token.userId !== userId))
          return [map.size - next.size, next]
        })
    })
  })
)
