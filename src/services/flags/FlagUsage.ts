/**
 * A flag as every caller sees it (HTTP, the CLI, an Effect host): with each configuration's
 * `lastEvaluatedAt` and its `stale` status (the rule is in domain/insights/Usage.ts).
 */
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ConfigError } from "effect/ConfigError"
import type { Flag } from "../../domain/definitions/Flag.js"
import { DEFAULT_STALE_AFTER_DAYS, type FlagWithUsage, lastEvaluatedWithDependents, withUsage } from "../../domain/insights/Usage.js"
import { InsightsRepository } from "../../ports/InsightsRepository.js"
import type { StorageError } from "../../ports/StorageError.js"

/** FLAGPORT_STALE_AFTER_DAYS as the use cases read it when they are built (default 30). */
export class StaleAfterDays extends Context.Reference<StaleAfterDays>()("@flagport/services/StaleAfterDays", {
  defaultValue: (): number => DEFAULT_STALE_AFTER_DAYS
}) {}

/** FLAGPORT_STALE_AFTER_DAYS: a whole number of days, at least 1 (default 30). */
export const staleAfterDaysConfig: Config.Config<number> = Config.integer("FLAGPORT_STALE_AFTER_DAYS").pipe(
  Config.validate({ message: "Expected a whole number of days, at least 1", validation: (days) => days >= 1 }),
  Config.withDefault(DEFAULT_STALE_AFTER_DAYS)
)

/** The stale period from the environment; fails at start on a bad FLAGPORT_STALE_AFTER_DAYS. */
export const layerConfig: Layer.Layer<never, ConfigError> = Layer.unwrapEffect(
  Effect.map(staleAfterDaysConfig, (days) => Layer.succeed(StaleAfterDays, days))
)

/**
 * `shown` as the API shows them. A flag counts as evaluated when a flag requiring it is, so the
 * project's flags that require others (`all` may be every flag: the others add nothing) are
 * needed, and read, only when some flag of the project was evaluated.
 */
export type FlagViewer = (
  projectId: string,
  shown: ReadonlyArray<Flag>,
  all: ReadonlyArray<Flag> | Effect.Effect<ReadonlyArray<Flag>, StorageError>
) => Effect.Effect<ReadonlyArray<FlagWithUsage>, StorageError>

export const viewer: Effect.Effect<FlagViewer, never, InsightsRepository> = Effect.gen(function* () {
  const repository = yield* InsightsRepository
  const staleAfterDays = yield* StaleAfterDays
  return (projectId, shown, all) =>
    Effect.gen(function* () {
      const last = yield* repository.lastEvaluated(projectId)
      const index = new Map(last.map((l) => [`${l.flagKey}\u0000${l.environmentKey}`, l.at]))
      // Nothing evaluated: no flag can inherit an evaluation from the flags requiring it.
      const every = last.length === 0 ? shown : Effect.isEffect(all) ? yield* all : all
      const lastEvaluated = lastEvaluatedWithDependents(every, (flagKey, env) => index.get(`${flagKey}\u0000${env}`) ?? null)
      const now = yield* Clock.currentTimeMillis
      return shown.map((flag) => withUsage(flag, (env) => lastEvaluated(flag.key, env), now, staleAfterDays))
    })
})
