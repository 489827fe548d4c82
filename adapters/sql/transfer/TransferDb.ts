import { SqlClient, TransactionConnection } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { StorageError } from "../../../src/ports/StorageError.js"
import { orFail } from "../SqlSupport.js"
import type { Dialect } from "./ColumnKinds.js"

/** A row as a driver answers it. */
export type Row = Record<string, unknown>

/**
 * One side of a transfer: a SQL client and its dialect, with statements written once with `?`
 * placeholders (numbered for PostgreSQL here).
 */
export interface TransferDb {
  readonly dialect: Dialect
  readonly client: SqlClient
  readonly query: (text: string, params?: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<Row>, StorageError>
  /** Runs an effect that uses the client's services (repositories made over it) on this side. */
  readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, Exclude<R, SqlClient>>
}

/** `?` placeholders as PostgreSQL's `$1, $2, ...` (the statements here hold no `?` in literals). */
const numbered = (text: string) => {
  let n = 0
  return text.replace(/\?/g, () => `$${++n}`)
}

export const dialectOf = (client: SqlClient): Dialect =>
  client.onDialectOrElse({ pg: () => "pg" as const, sqlite: () => "sqlite" as const, orElse: () => "sqlite" as const })

/**
 * A side of the transfer over `client`. `apart: true` (the source) runs its statements outside
 * whatever transaction the fiber is in: @effect/sql finds a transaction's connection by one
 * context tag shared by every client, so without this a read of the source inside the target's
 * transaction would be sent to the target's connection.
 */
export const make = (client: SqlClient, options: { readonly apart: boolean }): TransferDb => {
  const dialect = dialectOf(client)
  const run = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, SqlClient>> => {
    const provided = Effect.provideService(effect, SqlClient, client) as Effect.Effect<A, E, Exclude<R, SqlClient>>
    return options.apart
      ? Effect.mapInputContext(provided, (context: Context.Context<Exclude<R, SqlClient>>) => Context.omit(TransactionConnection)(context) as typeof context)
      : provided
  }
  const query = (text: string, params: ReadonlyArray<unknown> = []) =>
    run(orFail(client.unsafe<Row>(dialect === "pg" ? numbered(text) : text, params) as Effect.Effect<ReadonlyArray<Row>, SqlError>))
  return { dialect, client, query, run }
}
