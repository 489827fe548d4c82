import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { SsoIdentityRepository } from "../../src/ports/SsoIdentityRepository.js"
import { MemoryDb } from "./MemoryDb.js"
import { insertNew } from "./MemoryTables.js"

/** The reference SsoIdentityRepository: account ids by issuer and subject (a JSON pair, so no separator can be forged). */

export const layer = Layer.effect(
  SsoIdentityRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, string>>("sso_identities", new Map())
    // Allowances' expiry times by account.
    const allowances = db.makeRef<ReadonlyMap<string, string>>("sso_link_allowances", new Map())
    const keyOf = (issuer: string, subject: string) => JSON.stringify([issuer, subject])
    return SsoIdentityRepository.of({
      find: (issuer, subject) => Effect.map(table.get, (map) => Option.fromNullable(map.get(keyOf(issuer, subject)))),
      isLinked: (userId) => Effect.map(table.get, (map) => Array.from(map.values()).includes(userId)),
      link: (issuer, subject, userId) => insertNew(table, keyOf(issuer, subject), () => userId, "sso identity", `${issuer} ${subject}`),
      unlinkAll: (userId) => table.update((map) => new Map(Array.from(map).filter(([, owner]) => owner !== userId))),
      allowLink: (userId, _allowedAt, expiresAt) => allowances.update((map) => new Map(map).set(userId, expiresAt)),
      spendAllowance: (userId, now) =>
        allowances.modify((map) => {
          const expiresAt = map.get(userId)
          if (expiresAt === undefined) return [false, map]
          const rest = new Map(map)
          rest.delete(userId)
          return expiresAt > now ? [true, rest] : [false, rest]
        })
    })
  })
)
