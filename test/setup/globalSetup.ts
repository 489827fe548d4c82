import type { TestProject } from "vitest/node"
import { startEmbeddedPostgres } from "./EmbeddedPostgres.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** Superuser URL of a PostgreSQL server for tests; test/fixtures/databases.ts makes fresh databases on it. */
    pgUrl: string
  }
}

/**
 * Gives every test run a real PostgreSQL: FLAGPORT_TEST_DATABASE_URL when set (a superuser URL of
 * an existing server), otherwise an embedded PostgreSQL started here and removed at teardown.
 * If it cannot start, setup prints why and throws, and the whole run fails: PostgreSQL is never skipped.
 */
export default async function setup(project: TestProject) {
  const external = process.env["FLAGPORT_TEST_DATABASE_URL"]
  if (external !== undefined && external !== "") {
    project.provide("pgUrl", external)
    return async () => {}
  }
  const started = Date.now()
  const postgres = await startEmbeddedPostgres().catch((error: unknown) => {
    // Printed here as well as thrown: the cause must reach the terminal however vitest reports it.
    console.error(`\nTest setup failed. ${error instanceof Error ? error.message : String(error)}\n`)
    throw error
  })
  if (process.env["FLAGPORT_TEST_VERBOSE"]) console.log(`embedded PostgreSQL ready in ${Date.now() - started} ms`)
  project.provide("pgUrl", postgres.url)
  return async () => {
    await postgres.stop()
  }
}
