import * as Effect from "effect/Effect"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Projects } from "../../src/services/projects/Projects.js"

/**
 * The seeding step of the contract: project `default` with three environments when they are
 * missing, then a fresh global server key and a client key for `default`. Safe to run again:
 * existing data is kept, and each run mints a new pair of keys (old keys stay valid).
 */

export const DEFAULT_PROJECT_ID = "default"

export const DEFAULT_ENVIRONMENTS: ReadonlyArray<{ readonly key: string; readonly name: string }> = [
  { key: "development", name: "Development" },
  { key: "staging", name: "Staging" },
  { key: "production", name: "Production" }
]

export interface SeedResult {
  readonly serverKey: string
  readonly clientKey: string
  readonly projectId: string
  /** Keys of every environment of the project after seeding, in creation order. */
  readonly environments: ReadonlyArray<string>
}

/** Creates the project when missing; a concurrent creator winning the race is fine too. */
const ensureProject = Effect.gen(function* () {
  const projects = yield* Projects
  const found = yield* projects.get(DEFAULT_PROJECT_ID).pipe(
    Effect.as(true),
    Effect.catchTag("ResourceNotFound", () => Effect.succeed(false))
  )
  if (found) return
  yield* projects
    .create({ id: DEFAULT_PROJECT_ID, name: "Default" })
    .pipe(Effect.asVoid, Effect.catchTag("ResourceConflict", () => Effect.void))
})

const ensureEnvironments = Effect.gen(function* () {
  const environments = yield* Environments
  const existing = new Set((yield* environments.list(DEFAULT_PROJECT_ID)).map((environment) => environment.key))
  for (const wanted of DEFAULT_ENVIRONMENTS) {
    if (existing.has(wanted.key)) continue
    yield* environments
      .create(DEFAULT_PROJECT_ID, wanted)
      .pipe(Effect.asVoid, Effect.catchTag("ResourceConflict", () => Effect.void))
  }
  return (yield* environments.list(DEFAULT_PROJECT_ID)).map((environment) => environment.key)
})

/** Seeds the database (see above) and returns the new keys; one transaction per write. */
export const seed = Effect.gen(function* () {
  const apiKeys = yield* ApiKeys
  yield* ensureProject
  const environments = yield* ensureEnvironments
  const server = yield* apiKeys.create({ type: "server", projectId: null, name: "seed: global server key" })
  const client = yield* apiKeys.create({ type: "client", projectId: DEFAULT_PROJECT_ID, name: "seed: client key" })
  return {
    serverKey: server.secret,
    clientKey: client.secret,
    projectId: DEFAULT_PROJECT_ID,
    environments
  } satisfies SeedResult
}).pipe(Effect.withSpan("cli.seed"))

/** The `KEY=value` lines printed by `seed` and by the first start (contract wording). */
export const seedLines = (result: SeedResult): ReadonlyArray<string> => [
  `SERVER_KEY=${result.serverKey}`,
  `CLIENT_KEY=${result.clientKey}`,
  `PROJECT_ID=${result.projectId}`
]

/** The `--json` form of `seed`. */
export const seedJson = (result: SeedResult) => ({
  serverKey: result.serverKey,
  clientKey: result.clientKey,
  projectId: result.projectId,
  environments: result.environments
})

/**
 * A database is "empty" (first start) when it holds no project and no API key. Anything else
 * means someone already set it up, and the first-start path must not mint or print keys.
 */
export const isEmpty = Effect.gen(function* () {
  const projects = yield* (yield* Projects).list()
  if (projects.length > 0) return false
  const keys = yield* (yield* ApiKeys).list()
  return keys.length === 0
})
