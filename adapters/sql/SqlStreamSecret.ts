import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { StorageError } from "../../src/ports/StorageError.js"
import { StreamSecret } from "../../src/ports/StreamSecret.js"
import { decodeRows } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"

const decodeSecrets = decodeRows(Schema.Struct({ secret: Schema.String }), "flagport_stream_secret")

/** The stream-token secret made by migration 0008_stream_secret (one row, base64). */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return StreamSecret.of({
    get: orFail(sql`SELECT secret FROM flagport_stream_secret WHERE id = 1`).pipe(
      Effect.flatMap(decodeSecrets),
      Effect.flatMap((rows) =>
        rows[0] === undefined
          ? Effect.fail(new StorageError({ message: "The stream secret is missing (migration 0008_stream_secret did not run)" }))
          : Effect.succeed(new Uint8Array(Buffer.from(rows[0].secret, "base64"))))
    )
  })
})

export const layer = Layer.effect(StreamSecret, make)
