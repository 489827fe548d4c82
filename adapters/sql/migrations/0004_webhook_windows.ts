import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Each webhook's latest enabled window (domain/webhooks/WebhookWindow.ts), so fan-out gives a webhook
 * exactly the events that occurred while it was enabled, judged by the event's time rather than by
 * the webhook's state when the fan-out runs.
 *
 * Existing webhooks: an enabled one is taken to have been enabled since its creation; a disabled
 * one since its creation until its last update (the best record there is of when it was
 * disabled). Both columns are nullable: a webhook created disabled has no window until enabled.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE flagport_webhooks ADD COLUMN enabled_at TEXT`
  yield* sql`ALTER TABLE flagport_webhooks ADD COLUMN disabled_at TEXT`
  yield* sql`UPDATE flagport_webhooks SET enabled_at = created_at WHERE enabled = 1`
  yield* sql`UPDATE flagport_webhooks SET enabled_at = created_at, disabled_at = updated_at WHERE enabled = 0`
})
