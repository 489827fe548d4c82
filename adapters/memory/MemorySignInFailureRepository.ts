import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type SignInAdmission, SignInFailureRepository } from "../../src/ports/SignInFailureRepository.js"
import { MemoryDb } from "./MemoryDb.js"

/** The reference SignInFailureRepository: failures (time and client address) per normalized email. */

interface Failure {
  readonly at: string
  readonly client: string
}

type Table = ReadonlyMap<string, ReadonlyArray<Failure>>

const byTime = (a: Failure, b: Failure) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)
const timesOf = (failures: ReadonlyArray<Failure>) => [...failures].sort(byTime).map((f) => f.at)

/** The table with `email`'s failures replaced by `kept` (the email gone when none are left). */
const withFailures = (map: Table, email: string, kept: ReadonlyArray<Failure>): Table => {
  const next = new Map(map)
  if (kept.length === 0) next.delete(email)
  else next.set(email, kept)
  return next
}

export const layer = Layer.effect(
  SignInFailureRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<Table>("sign_in_failures", new Map())
    return SignInFailureRepository.of({
      record: (email, client, at, forgetUpTo) =>
        table.update((map) => withFailures(map, email, [...(map.get(email) ?? []).filter((f) => f.at > forgetUpTo), { at, client }])),
      admit: (email, client, at, forgetUpTo, limit) =>
        table.modify((map): readonly [SignInAdmission, Table] => {
          const kept = (map.get(email) ?? []).filter((f) => f.at > forgetUpTo)
          const fromClient = kept.filter((f) => f.client === client)
          if (fromClient.length >= limit) return [{ _tag: "Refused", failures: timesOf(fromClient) }, withFailures(map, email, kept)]
          return [{ _tag: "Admitted" }, withFailures(map, email, [...kept, { at, client }])]
        }),
      since: (email, since, client) =>
        Effect.map(table.get, (map) => timesOf((map.get(email) ?? []).filter((f) => f.at > since && (client === undefined || f.client === client)))),
      count: (email, since) => Effect.map(table.get, (map) => (map.get(email) ?? []).filter((f) => f.at > since).length),
      prune: (upTo, limit) =>
        table.modify((map): readonly [number, Table] => {
          // Oldest first across emails, as SQL deletes them.
          const old = Array.from(map).flatMap(([email, failures]) => failures.filter((f) => f.at <= upTo).map((f) => [f, email] as const))
          const going = old.sort(([a], [b]) => byTime(a, b)).slice(0, Math.max(0, limit))
          let next = map
          for (const [failure, email] of going) {
            next = withFailures(next, email, (next.get(email) ?? []).filter((f) => f !== failure))
          }
          return [going.length, next]
        }),
      clear: (email, client) =>
        table.update((map) => withFailures(map, email, client === undefined ? [] : (map.get(email) ?? []).filter((f) => f.client !== client)))
    })
  })
)
