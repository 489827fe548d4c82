import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Indexes for retention (WebhookRepository.pruneFinished, EventOutbox.pruneDispatched), so the
 * hourly prune finds old finished deliveries and dispatched events without scanning the tables.
 * Partial indexes: they hold only the rows retention can delete, in the order it deletes them.
 *
 * A plain CREATE INDEX: on PostgreSQL it blocks writes to these two tables while it builds (flag
 * writes append to the outbox, so they wait too). On a large existing installation, run the
 * upgrade at a quiet moment; see docs/operations/operating.md, Upgrading.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX flagport_webhook_deliveries_finished ON flagport_webhook_deliveries (updated_at, seq)
    WHERE status IN ('succeeded', 'failed')`
  yield* sql`CREATE INDEX flagport_outbox_dispatched ON flagport_outbox (dispatched_at, seq) WHERE dispatched_at IS NOT NULL`
})
