import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Indexes for retention (WebhookRepository.pruneFinished, EventOutbox.pruneDispatched), so the
 * hourly prune finds old finished deliveries and dispatched events without scanning the tables.
 * Additive only: an older instance still running during a rolling upgrade is unaffected.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX flagport_webhook_deliveries_finished ON flagport_webhook_deliveries (status, updated_at)`
  yield* sql`CREATE INDEX flagport_outbox_dispatched ON flagport_outbox (dispatched_at)`
})
