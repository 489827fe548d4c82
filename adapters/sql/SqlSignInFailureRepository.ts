import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { SignInFailureRepository } from "../../src/ports/SignInFailureRepository.js"
import { decodeRows, SqlInteger } from "./SqlRows.js"
import { orFail, toStorageError } from "./SqlSupport.js"

/** Failed sign-ins, one row each, by normalized email, client address and time (indexed together). */

const FailureRow = Schema.Struct({ failed_at: Schema.String })
const decodeFailures = decodeRows(FailureRow, "flagport_sign_in_failures")
const SeqRow = Schema.Struct({ seq: SqlInteger })
const decodeSeqs = decodeRows(SeqRow, "flagport_sign_in_failures")
const CountRow = Schema.Struct({ n: SqlInteger })
const decodeCount = decodeRows(CountRow, "flagport_sign_in_failures")

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return SignInFailureRepository.of({
    record: (email, client, at, forgetUpTo) =>
      Effect.zipRight(
        orFail(sql`DELETE FROM flagport_sign_in_failures WHERE email = ${email} AND failed_at <= ${forgetUpTo}`),
        orFail(sql`INSERT INTO flagport_sign_in_failures ${sql.insert({ email, client_address: client, failed_at: at })}`)
      ).pipe(Effect.asVoid),
    admit: (email, client, at, forgetUpTo, limit) =>
      Effect.gen(function* () {
        // PostgreSQL: one attempt per email at a time (released at commit). SQLite: the DELETE
        // below takes the database's write lock first, held to the commit.
        yield* sql.onDialectOrElse({
          pg: () => sql`SELECT pg_advisory_xact_lock(72460314, hashtext(${email}))`.pipe(Effect.asVoid),
          orElse: () => Effect.void
        })
        yield* sql`DELETE FROM flagport_sign_in_failures WHERE email = ${email} AND failed_at <= ${forgetUpTo}`
        const inserted = yield* sql`INSERT INTO flagport_sign_in_failures ${sql.insert({ email, client_address: client, failed_at: at })} RETURNING seq`.pipe(
          Effect.flatMap(decodeSeqs)
        )
        const seq = inserted[0]!.seq
        const before = yield* sql`SELECT failed_at FROM flagport_sign_in_failures
          WHERE email = ${email} AND client_address = ${client} AND failed_at > ${forgetUpTo} AND seq <> ${seq} ORDER BY failed_at`.pipe(Effect.flatMap(decodeFailures))
        if (before.length < limit) return { _tag: "Admitted" as const }
        yield* sql`DELETE FROM flagport_sign_in_failures WHERE seq = ${seq}`
        return { _tag: "Refused" as const, failures: before.map((row) => row.failed_at) }
      }).pipe(
        sql.withTransaction,
        Effect.mapError((error) => (error._tag === "StorageError" ? error : toStorageError(error)))
      ),
    since: (email, since, client) =>
      orFail(sql`SELECT failed_at FROM flagport_sign_in_failures WHERE email = ${email} AND failed_at > ${since}
        ${client === undefined ? sql`` : sql`AND client_address = ${client}`} ORDER BY failed_at`).pipe(
        Effect.flatMap(decodeFailures),
        Effect.map((rows) => rows.map((row) => row.failed_at))
      ),
    count: (email, since) =>
      orFail(sql`SELECT COUNT(*) AS n FROM flagport_sign_in_failures WHERE email = ${email} AND failed_at > ${since}`).pipe(
        Effect.flatMap(decodeCount),
        Effect.map((rows) => rows[0]?.n ?? 0)
      ),
    prune: (upTo, limit) =>
      orFail(sql`DELETE FROM flagport_sign_in_failures WHERE seq IN (
        SELECT seq FROM flagport_sign_in_failures WHERE failed_at <= ${upTo} ORDER BY failed_at LIMIT ${Math.max(0, Math.floor(limit))}
      ) RETURNING seq`).pipe(
        Effect.flatMap(decodeSeqs),
        Effect.map((rows) => rows.length)
      ),
    clear: (email, client) =>
      orFail(
        client === undefined
          ? sql`DELETE FROM flagport_sign_in_failures WHERE email = ${email}`
          : sql`DELETE FROM flagport_sign_in_failures WHERE email = ${email} AND client_address = ${client}`
      ).pipe(Effect.asVoid)
  })
})

export const layer = Layer.effect(SignInFailureRepository, make)
