/**
 * The change feed on PostgreSQL: changes published here reach this process's listeners at once
 * (the in-process fan-out) and every other process on the same database through
 * `SELECT pg_notify('flagport_changes', payload)`, which each process LISTENs to on one
 * connection of its own. (`PgClient.notify` is not used: in @effect/sql-pg 0.53 it sends
 * `NOTIFY ch, $1`, which PostgreSQL rejects.)
 *
 * The payload is the change as JSON with the publishing feed's origin id, so a process skips the
 * echo of its own changes (already delivered locally). A notification lost while the LISTEN
 * connection is down is not replayed: consumers keep a slow re-read of storage as a safety net.
 */
import { PgClient } from "@effect/sql-pg"
import { randomUUID } from "node:crypto"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { type Change, ChangeFeed } from "../../src/ports/ChangeFeed.js"
import { makeFanOut } from "../change-feed/InProcessChangeFeed.js"
import * as Instruments from "../metrics/Instruments.js"

export const CHANNEL = "flagport_changes"

/** PostgreSQL refuses payloads of 8000 bytes or more; longer changes are widened to fit. */
const MAX_PAYLOAD_BYTES = 7900

const ChangeSchema = Schema.Union(
  Schema.Struct({
    _tag: Schema.Literal("ConfigChanged"),
    projectId: Schema.String,
    revision: Schema.Number,
    environments: Schema.Union(Schema.Literal("all"), Schema.Array(Schema.String)),
    kind: Schema.Literal("project", "environment", "flag", "targeting", "segment", "experiment"),
    flagKeys: Schema.Array(Schema.String),
    segmentKeys: Schema.Array(Schema.String)
  }),
  Schema.Struct({
    _tag: Schema.Literal("ApiKeyRevoked"),
    keyId: Schema.String,
    projectId: Schema.NullOr(Schema.String)
  })
)

/**
 * `sentAt`: the sender's clock (epoch ms) when it announced the change, for the change-feed lag
 * metric; optional, so processes of an older version (which send none, and ignore it) still interoperate.
 */
const Payload = Schema.parseJson(Schema.Struct({ origin: Schema.String, change: ChangeSchema, sentAt: Schema.optional(Schema.Number) }))
const encodePayload = Schema.encodeSync(Payload)
const decodePayload = Schema.decodeUnknownEither(Payload)

/** The notification payload; a change too long for one is widened (all environments, no keys named). */
export const payloadOf = (origin: string, change: Change, sentAt: number = Date.now()): string => {
  const payload = encodePayload({ origin, change, sentAt })
  if (Buffer.byteLength(payload, "utf8") <= MAX_PAYLOAD_BYTES || change._tag !== "ConfigChanged") return payload
  return encodePayload({ origin, change: { ...change, environments: "all", flagKeys: [], segmentKeys: [] }, sentAt })
}

/** The lag of a change another process sent (clocks of two hosts may differ: never below zero). */
const recordLag = (sentAt: number | undefined): void => {
  if (sentAt !== undefined) Instruments.changeFeedLagSeconds.unsafeUpdate(Math.max(0, Date.now() - sentAt) / 1000, [])
}

/**
 * `listen: false` for short-lived processes (the CLI) that only announce their own writes: they hold
 * no LISTEN connection, so nothing is left to close when the command ends.
 */
export const make = (options: { readonly listen: boolean }) => Effect.gen(function* () {
  const pg = yield* PgClient.PgClient
  const origin = randomUUID()
  const local = makeFanOut()

  if (options.listen) yield* pg.listen(CHANNEL).pipe(
    Stream.runForEach((raw) =>
      Either.match(decodePayload(raw), {
        onLeft: (error) => Effect.logWarning(`Ignored a malformed notification on ${CHANNEL}`, error.message),
        onRight: ({ change, origin: from, sentAt }) => {
          if (from === origin) return Effect.void
          recordLag(sentAt)
          return local.deliver(change)
        }
      })
    ),
    Effect.tapErrorCause((cause) => Effect.logWarning(`LISTEN ${CHANNEL} failed; retrying (changes from other processes wait for the poll)`, cause)),
    Effect.retry(Schedule.spaced("1 second")),
    Effect.forkScoped
  )

  const publish = (change: Change) =>
    local.deliver(change).pipe(
      // Awaited, so a short-lived writer (the CLI) does not exit before its notification is sent.
      Effect.zipRight(pg`SELECT pg_notify(${CHANNEL}, ${payloadOf(origin, change)})`),
      Effect.asVoid,
      Effect.catchAllCause((cause) => Effect.logWarning("pg_notify failed (other processes will see the change by polling)", cause))
    )

  return ChangeFeed.of({ publish, subscribe: local.subscribe })
})

/** The PostgreSQL change feed over the PgClient; LISTENs for as long as the layer lives. */
export const layer: Layer.Layer<ChangeFeed, never, PgClient.PgClient> = Layer.scoped(ChangeFeed, make({ listen: true }))

/** Announces this process's writes to the others, hears none of theirs (for one-shot commands). */
export const announceOnlyLayer: Layer.Layer<ChangeFeed, never, PgClient.PgClient> = Layer.scoped(ChangeFeed, make({ listen: false }))
