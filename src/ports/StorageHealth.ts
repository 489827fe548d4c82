import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StorageError } from "./StorageError.js"

export interface StorageHealthShape {
  /** Succeeds when the backend answers a trivial query now (used by `GET /health`). */
  readonly check: Effect.Effect<void, StorageError>
  /** `memory`, `sqlite` or `postgres`: for health output and logs. */
  readonly backend: string
}

/** A liveness probe of the storage backend. */
export class StorageHealth extends Context.Tag("@flagport/ports/StorageHealth")<StorageHealth, StorageHealthShape>() {}
