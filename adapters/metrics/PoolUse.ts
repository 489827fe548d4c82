/**
 * A database pool's use, as a storage adapter that owns a pool reports it (PostgreSQL's; SQLite
 * has one connection and a writer queue instead, Instruments.sqliteWriterQueue). The server reads
 * it when scraped (ServerMetrics). A tag of the adapters: the core never asks about pools.
 */
import * as Context from "effect/Context"

export interface PoolUseShape {
  /** Connections open now, idle among them, requests waiting for one, and the pool's bound. */
  readonly measure: () => { readonly total: number; readonly idle: number; readonly waiting: number; readonly max: number }
}

export class PoolUse extends Context.Tag("@flagport/metrics/PoolUse")<PoolUse, PoolUseShape>() {}
