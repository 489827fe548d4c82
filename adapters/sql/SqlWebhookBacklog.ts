import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { WebhookBacklog } from "../../src/ports/WebhookBacklog.js"
import { decodeRows, SqlInteger } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"

const CountRow = Schema.Struct({ n: SqlInteger, oldest: Schema.NullOr(Schema.String) })
const decodeOutbox = decodeRows(CountRow, "flagport_outbox")
const decodeDeliveries = decodeRows(CountRow, "flagport_webhook_deliveries")

/**
 * Both counts on the partial indexes of pending rows (flagport_outbox_pending,
 * flagport_webhook_deliveries_pending), so a scrape stays cheap while the tables grow.
 */
export const layer = Layer.effect(
  WebhookBacklog,
  Effect.map(SqlClient.SqlClient, (sql) =>
    WebhookBacklog.of({
      measure: Effect.all([
        orFail(sql`SELECT COUNT(*) AS n, MIN(occurred_at) AS oldest FROM flagport_outbox WHERE dispatched_at IS NULL`).pipe(Effect.flatMap(decodeOutbox)),
        orFail(sql`SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM flagport_webhook_deliveries WHERE status = 'pending'`).pipe(
          Effect.flatMap(decodeDeliveries)
        )
      ]).pipe(
        Effect.map(([[outbox], [deliveries]]) => ({
          outboxEvents: outbox?.n ?? 0,
          oldestEventAt: outbox?.oldest ?? null,
          pendingDeliveries: deliveries?.n ?? 0,
          oldestDeliveryAt: deliveries?.oldest ?? null
        }))
      )
    })
  )
)
