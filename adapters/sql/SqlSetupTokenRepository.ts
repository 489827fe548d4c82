import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { SetupTokenRepository } from "../../src/ports/SetupTokenRepository.js"
import { decodeRows } from "./SqlRows.js"
import { orDuplicate, orFail } from "./SqlSupport.js"

/**
 * Setup tokens by `token_hash`. A spend is one `DELETE ... RETURNING`: of two at the same moment,
 * the second waits for the first's row lock (PostgreSQL) or the write lock (SQLite) and then finds
 * the row gone, so exactly one gets the user.
 */

const UserIdRow = Schema.Struct({ user_id: Schema.String })
const decodeUserIds = decodeRows(UserIdRow, "flagport_setup_tokens")

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return SetupTokenRepository.of({
    insert: (token) =>
      orDuplicate("setup token", token.userId)(
        sql`INSERT INTO flagport_setup_tokens ${sql.insert({
          token_hash: token.hash,
          user_id: token.userId,
          created_at: token.createdAt,
          expires_at: token.expiresAt
        })}`
      ).pipe(Effect.asVoid),
    find: (hash, at) =>
      orFail(sql`SELECT user_id FROM flagport_setup_tokens WHERE token_hash = ${hash} AND expires_at > ${at}`).pipe(
        Effect.flatMap(decodeUserIds),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.user_id))
      ),
    spend: (hash, at) =>
      orFail(sql`DELETE FROM flagport_setup_tokens WHERE token_hash = ${hash} AND expires_at > ${at} RETURNING user_id`).pipe(
        Effect.flatMap(decodeUserIds),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.user_id))
      ),
    deleteForUser: (userId) =>
      orFail(sql`DELETE FROM flagport_setup_tokens WHERE user_id = ${userId} RETURNING user_id`).pipe(
        Effect.flatMap(decodeUserIds),
        Effect.map((rows) => rows.length)
      )
  })
})

export const layer = Layer.effect(SetupTokenRepository, make)
