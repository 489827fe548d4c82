import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { SsoIdentityRepository } from "../../src/ports/SsoIdentityRepository.js"
import { decodeRows } from "./SqlRows.js"
import { orDuplicate, orFail } from "./SqlSupport.js"

/** Single sign-on identities by (issuer, subject), the primary key; by account through their index. */

const UserIdRow = Schema.Struct({ user_id: Schema.String })
const decodeUserIds = decodeRows(UserIdRow, "flagport_sso_identities")

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return SsoIdentityRepository.of({
    find: (issuer, subject) =>
      orFail(sql`SELECT user_id FROM flagport_sso_identities WHERE issuer = ${issuer} AND subject = ${subject}`).pipe(
        Effect.flatMap(decodeUserIds),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.user_id))
      ),
    isLinked: (userId) =>
      orFail(sql`SELECT user_id FROM flagport_sso_identities WHERE user_id = ${userId} LIMIT 1`).pipe(
        Effect.flatMap(decodeUserIds),
        Effect.map((rows) => rows.length > 0)
      ),
    link: (issuer, subject, userId, at) =>
      sql`INSERT INTO flagport_sso_identities ${sql.insert({ issuer, subject, user_id: userId, linked_at: at })}`.pipe(
        orDuplicate("sso identity", `${issuer} ${subject}`),
        Effect.asVoid
      ),
    unlinkAll: (userId) => orFail(sql`DELETE FROM flagport_sso_identities WHERE user_id = ${userId}`).pipe(Effect.asVoid),
    allowLink: (userId, allowedAt, expiresAt) =>
      orFail(sql`INSERT INTO flagport_sso_link_allowances ${sql.insert({ user_id: userId, allowed_at: allowedAt, expires_at: expiresAt })}
        ON CONFLICT (user_id) DO UPDATE SET allowed_at = ${allowedAt}, expires_at = ${expiresAt}`).pipe(Effect.asVoid),
    // One statement: of two sign-ins spending it at once, one deletes the row.
    spendAllowance: (userId, now) =>
      orFail(sql`DELETE FROM flagport_sso_link_allowances WHERE user_id = ${userId} AND expires_at > ${now} RETURNING user_id`).pipe(
        Effect.flatMap(decodeUserIds),
        Effect.map((rows) => rows.length > 0)
      )
  })
})

export const layer = Layer.effect(SsoIdentityRepository, make)
