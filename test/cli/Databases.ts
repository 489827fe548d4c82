/**
 * Database URLs for CLI tests: the CLI runs in a separate process, so it needs a URL, not a layer.
 * PostgreSQL databases come from the shared fixture and are dropped when the test file ends.
 */
import { Effect, Exit, Scope } from "effect"
import { afterAll } from "vitest"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { freshPostgresUrl } from "../fixtures/databases.js"
import { freshSqliteUrl } from "./Process.js"

const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

export interface Backend {
  readonly name: "sqlite" | "postgres"
  /** The URL of a database no test has used yet. */
  readonly fresh: () => Promise<string>
}

export const backends: ReadonlyArray<Backend> = [
  { name: "sqlite", fresh: async () => freshSqliteUrl() },
  { name: "postgres", fresh: () => Effect.runPromise(Scope.extend(freshPostgresUrl, scope)) }
]

/** Runs `effect` against the database at `url`, as another process beside the CLI would, then lets it go. */
export const withStorage = async <A>(url: string, effect: Effect.Effect<A, unknown, StorageLayer.Storage>): Promise<A> => {
  const runtime = StorageLayer.makeRuntime(url)
  try {
    return await runtime.runPromise(effect)
  } finally {
    await runtime.dispose()
  }
}
