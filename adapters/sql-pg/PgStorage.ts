import type { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import * as Duration from "effect/Duration"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { StorageError } from "../../src/ports/StorageError.js"
import { redactUrl } from "./RedactUrl.js"

export interface Options {
  /** `postgres://user:password@host:port/database?...` */
  readonly url: string
  /** Pool size (default 10). */
  readonly maxConnections?: number
}

/**
 * A pooled SqlClient (and PgClient) over node-postgres, closed with the layer's scope. Fails at
 * build time when the server cannot be reached, with the URL (password redacted) in the message.
 */
export const layer = (options: Options): Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, StorageError> =>
  PgClient.layer({
    url: Redacted.make(options.url),
    maxConnections: options.maxConnections ?? 10,
    connectTimeout: Duration.seconds(10),
    applicationName: "flagport"
  }).pipe(
    Layer.mapError(
      (cause) => new StorageError({ message: `Cannot connect to PostgreSQL at ${redactUrl(options.url)}: ${cause.message}`, cause })
    )
  )
