import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { SessionRepository, type StoredSession } from "../../src/ports/SessionRepository.js"
import { MemoryDb } from "./MemoryDb.js"
import { insertNew } from "./MemoryTables.js"

/** The reference SessionRepository: sessions by token hash. */

/** Removes the rows `drop` picks; answers how many. */
const removeWhere = (drop: (session: StoredSession) => boolean) => (map: ReadonlyMap<string, StoredSession>) => {
  const next = new Map(Array.from(map).filter(([, session]) => !drop(session)))
  return [map.size - next.size, next] as const
}

export const layer = Layer.effect(
  SessionRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, StoredSession>>("sessions", new Map())
    return SessionRepository.of({
      insert: (session) => insertNew(table, session.hash, () => ({ ...session }), "session", session.userId),
      find: (hash) => Effect.map(table.get, (map) => Option.fromNullable(map.get(hash))),
      touch: (hash, at) =>
        table.update((map) => {
          const session = map.get(hash)
          return session === undefined ? map : new Map(map).set(hash, { ...session, lastSeenAt: at })
        }),
      delete: (hash) => Effect.asVoid(table.modify(removeWhere((session) => session.hash === hash))),
      deleteForUser: (userId) => table.modify(removeWhere((session) => session.userId === userId)),
      deleteExpired: (at) => table.modify(removeWhere((session) => session.expiresAt <= at))
    })
  })
)
