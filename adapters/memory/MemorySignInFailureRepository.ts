import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type SignInAdmission, SignInFailureRepository } from "../../src/ports/SignInFailureRepository.js"
import { MemoryDb } from "./MemoryDb.js"

/** The reference SignInFailureRepository: failure times per normalized email. */

export const layer = Layer.effect(
  SignInFailureRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, ReadonlyArray<string>>>("sign_in_failures", new Map())
    return SignInFailureRepository.of({
      record: (email, at, forgetUpTo) =>
        table.update((map) => new Map(map).set(email, [...(map.get(email) ?? []).filter((t) => t > forgetUpTo), at])),
      admit: (email, at, forgetUpTo, limit) =>
        table.modify((map): readonly [SignInAdmission, ReadonlyMap<string, ReadonlyArray<string>>] => {
          const kept = (map.get(email) ?? []).filter((t) => t > forgetUpTo)
          if (kept.length >= limit) return [{ _tag: "Refused", failures: [...kept].sort() }, new Map(map).set(email, kept)]
          return [{ _tag: "Admitted" }, new Map(map).set(email, [...kept, at])]
        }),
      since: (email, since) => Effect.map(table.get, (map) => (map.get(email) ?? []).filter((t) => t > since).sort()),
      prune: (upTo, limit) =>
        table.modify((map): readonly [number, ReadonlyMap<string, ReadonlyArray<string>>] => {
          // Oldest first across emails, as SQL deletes them.
          const old = Array.from(map).flatMap(([email, times]) => times.filter((t) => t <= upTo).map((t) => [t, email] as const))
          const going = old.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, Math.max(0, limit))
          const next = new Map(map)
          for (const [t, email] of going) {
            const times = next.get(email) ?? []
            const i = times.indexOf(t)
            const kept = [...times.slice(0, i), ...times.slice(i + 1)]
            if (kept.length === 0) next.delete(email)
            else next.set(email, kept)
          }
          return [going.length, next]
        }),
      clear: (email) =>
        table.update((map) => {
          const next = new Map(map)
          next.delete(email)
          return next
        })
    })
  })
)
