import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * The trace of the write that caused a webhook event (a W3C `traceparent`, null when the write was
 * not traced), kept with the outbox event and copied to its deliveries: a send, maybe in another
 * process, maybe hours later, links its span to that write's (docs/operations/operating.md, Traces).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE flagport_outbox ADD COLUMN trace_parent TEXT`
  yield* sql`ALTER TABLE flagport_webhook_deliveries ADD COLUMN trace_parent TEXT`
})
