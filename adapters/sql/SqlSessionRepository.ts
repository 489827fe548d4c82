import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { SessionRepository, type StoredSession } from "../../src/ports/SessionRepository.js"
import { decodeRows } from "./SqlRows.js"
import { orDuplicate, orFail } from "./SqlSupport.js"

/** Sessions by `token_hash` (the primary key): the token itself is never a parameter here. */

const SessionRow = Schema.Struct({
  token_hash: Schema.String,
  user_id: Schema.String,
  created_at: Schema.String,
  last_seen_at: Schema.String,
  expires_at: Schema.String
})
const HashRow = Schema.Struct({ token_hash: Schema.String })

const decodeSessions = decodeRows(SessionRow, "flagport_sessions")
const decodeHashes = decodeRows(HashRow, "flagport_sessions")

const toSession = (row: typeof SessionRow.Type): StoredSession => ({
  hash: row.token_hash,
  userId: row.user_id,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return SessionRepository.of({
    insert: (session) =>
      orDuplicate("session", session.userId)(
        sql`INSERT INTO flagport_sessions ${sql.insert({
          token_hash: session.hash,
          user_id: session.userId,
          created_at: session.createdAt,
          last_seen_at: session.lastSeenAt,
          expires_at: session.expiresAt
        })}`
      ).pipe(Effect.asVoid),
    find: (hash) =>
      orFail(sql`SELECT token_hash, user_id, created_at, last_seen_at, expires_at FROM flagport_sessions WHERE token_hash = ${hash}`).pipe(
        Effect.flatMap(decodeSessions),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toSession))
      ),
    touch: (hash, at) => orFail(sql`UPDATE flagport_sessions SET last_seen_at = ${at} WHERE token_hash = ${hash}`).pipe(Effect.asVoid),
    delete: (hash) => orFail(sql`DELETE FROM flagport_sessions WHERE token_hash = ${hash}`).pipe(Effect.asVoid),
    deleteForUser: (userId) =>
      orFail(sql`DELETE FROM flagport_sessions WHERE user_id = ${userId} RETURNING token_hash`).pipe(Effect.flatMap(decodeHashes), Effect.map((rows) => rows.length)),
    deleteExpired: (at) =>
      orFail(sql`DELETE FROM flagport_sessions WHERE expires_at <= ${at} RETURNING token_hash`).pipe(Effect.flatMap(decodeHashes), Effect.map((rows) => rows.length))
  })
})

export const layer = Layer.effect(SessionRepository, make)
