import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { normalizeEmail } from "../../../src/domain/people/User.js"
/**
 * Emails were compared by a full Unicode lowercase, which folds some characters into others (the
 * Kelvin sign into `k`); they are now compared by `normalizeEmail` (ASCII lowercase, local parts
 * with other characters kept exact, domains in NFKC). Only addresses with a character beyond ASCII
 * can compare differently, so only those are recomputed; one whose new form another account
 * already has keeps its old form (it stays reachable by its exact spelling).
 */
const Row = Schema.Struct({ id: Schema.String, email: Schema.String, email_normalized: Schema.String })
const decode = Schema.decodeUnknown(Schema.Array(Row))

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* Effect.flatMap(sql`SELECT id, email, email_normalized FROM flagport_users`, decode).pipe(Effect.orDie)
  for (const row of rows) {
    if (/^[\x00-\x7f]*$/.test(row.email)) continue
    const normalized = normalizeEmail(row.email)
    if (normalized === row.email_normalized) continue
    const taken = yield* sql`SELECT id FROM flagport_users WHERE email_normalized = ${normalized}`
    if (taken.length > 0) continue
    yield* sql`UPDATE flagport_users SET email_normalized = ${normalized} WHERE id = ${row.id}`
  }
})
