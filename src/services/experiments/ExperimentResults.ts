import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { AuditEntry } from "../../domain/audit/AuditEntry.js"
import { exposureCountsOf, metricArmsOf } from "../../domain/experiments/AnalysisTotals.js"
import type { Forbidden, ResourceNotFound } from "../../domain/Errors.js"
import { ruleOf } from "../../domain/experiments/ExperimentRules.js"
import type { Experiment } from "../../domain/experiments/Experiment.js"
import type { ExperimentResults as Results } from "../../domain/experiments/Results.js"
import { resultsOf } from "../../domain/experiments/ResultsOf.js"
import { experimentNotFound } from "../../domain/NotFound.js"
import { AuditLog } from "../../ports/AuditLog.js"
import { ExperimentRepository } from "../../ports/ExperimentRepository.js"
import { ExperimentUnitRepository } from "../../ports/ExperimentUnitRepository.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { authorize, reach } from "../shared/Authorize.js"
import { requireProject } from "../shared/RequireProject.js"

export interface ExperimentResultsShape {
  /**
   * The results of an experiment as they stand (docs/guide/experiments.md): for a draft, empty
   * figures; for a running or stopped one, the analysis of every metric with its checks. 404 for
   * an unknown project or experiment.
   */
  readonly results: (projectId: string, key: string) => Effect.Effect<Results, ResourceNotFound | Forbidden | StorageError>
}

export class ExperimentResults extends Context.Tag("@flagport/services/ExperimentResults")<ExperimentResults, ExperimentResultsShape>() {}

/** Audit entries read per page, and at most how many pages: a flag changed more than 10,000 times in one experiment lists its latest. */
const PAGE = 500
const MAX_PAGES = 20

export const make = Effect.gen(function* () {
  const experiments = yield* ExperimentRepository
  const units = yield* ExperimentUnitRepository
  const flags = yield* FlagRepository
  const projects = yield* ProjectRepository
  const audit = yield* AuditLog

  /** The flag's audit entries since the experiment started, newest first, page by page. */
  const flagEntriesSince = (projectId: string, experiment: Experiment) =>
    Effect.gen(function* () {
      if (experiment.startedAt === null) return []
      const found: Array<AuditEntry> = []
      let before: number | undefined
      for (let page = 0; page < MAX_PAGES; page++) {
        const entries = yield* audit.list(projectId, { resourceType: "flag", resourceKey: experiment.flagKey }, PAGE, before)
        found.push(...entries.map((e) => e.entry).filter((e) => e.at >= experiment.startedAt!))
        const oldest = entries.at(-1)
        if (oldest === undefined || entries.length < PAGE || oldest.entry.at < experiment.startedAt) break
        before = oldest.position
      }
      return found
    })

  const results = Effect.fn("ExperimentResults.results")(function* (projectId: string, key: string) {
    yield* authorize("Experiments.results", projectId)
    yield* requireProject(projects, projectId)
    const experiment = yield* Effect.flatMap(experiments.get(projectId, key), Option.match({
      onNone: () => Effect.fail(experimentNotFound(projectId, key)),
      onSome: Effect.succeed
    }))
    yield* reach("Experiments.results", [experiment.environment])
    // The running totals (a few rows per variation and metric, however many units), beside the
    // flag and its audit entries: independent reads, side by side on PostgreSQL's pool.
    const [flag, totals, flagEntries] = yield* Effect.all([
      flags.get(projectId, experiment.flagKey),
      units.analysisTotals(experiment.id),
      flagEntriesSince(projectId, experiment)
    ], { concurrency: "unbounded" })
    const counts = exposureCountsOf(totals)
    return resultsOf(experiment, Option.isSome(flag) ? ruleOf(experiment, flag.value) : undefined, {
      unitsPerVariation: counts.perVariation,
      unitsInSeveralVariations: counts.inSeveralVariations,
      arms: new Map(experiment.metrics.map((metric) => [metric.key, metricArmsOf(totals, metric)])),
      flagEntries
    })
  })

  return ExperimentResults.of({ results })
})

export const layer = Layer.effect(ExperimentResults, make)
