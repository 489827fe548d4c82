import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * The delivery log no longer keeps what a destination answered: earlier versions stored the first
 * KiB of a non-2xx body in the attempt's `error` (`HTTP 503: <body>`), which showed an internal
 * service's answers to everyone with the project's key. Those texts are cut back to the status.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE flagport_webhook_attempts
    SET error = 'HTTP ' || CAST(status_code AS TEXT)
    WHERE status_code IS NOT NULL AND error IS NOT NULL`
})
