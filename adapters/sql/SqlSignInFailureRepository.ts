import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { SignInFailureRepository } from "../../src/ports/SignInFailureRepository.js"
import { decodeRows } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"

/** Failed sign-ins, one row each, by normalized email and time (indexed together). */

const FailureRow = Schema.Struct({ failed_at: Schema.String })
const decodeFailures = decodeRows(FailureRow, "flagport_sign_in_failures")

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return SignInFailureRepository.of({
    record: (email, at, forgetUpTo) =>
      Effect.zipRight(
        orFail(sql`DELETE FROM flagport_sign_in_failures WHERE email = ${email} AND failed_at <= ${forgetUpTo}`),
        orFail(sql`INSERT INTO flagport_sign_in_failures ${sql.insert({ email, failed_at: at })}`)
      ).pipe(Effect.asVoid),
    since: (email, since) =>
      orFail(sql`SELECT failed_at FROM flagport_sign_in_failures WHERE email = ${email} AND failed_at > ${since} ORDER BY failed_at`).pipe(
        Effect.flatMap(decodeFailures),
        Effect.map((rows) => rows.map((row) => row.failed_at))
      ),
    clear: (email) => orFail(sql`DELETE FROM flagport_sign_in_failures WHERE email = ${email}`).pipe(Effect.asVoid)
  })
})

export const layer = Layer.effect(SignInFailureRepository, make)
