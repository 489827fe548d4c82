import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { Experiment } from "../../src/domain/experiments/Experiment.js"
import { ExperimentRepository } from "../../src/ports/ExperimentRepository.js"
import { NotFound } from "../../src/ports/StorageError.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"
import { insertNew, removeExisting, scoped } from "./MemoryTables.js"

/** The reference ExperimentRepository: experiments by project and key, in creation order. */

interface Row {
  readonly projectId: string
  readonly experiment: Experiment
}

export const layer = Layer.effect(
  ExperimentRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, Row>>("experiments", new Map())
    const ofProject = (projectId: string) =>
      Effect.map(table.get, (map) => Array.from(map.values()).filter((row) => row.projectId === projectId).map((row) => jsonCopy(row.experiment)))
    return ExperimentRepository.of({
      insert: (projectId, experiment) =>
        insertNew(table, scoped(projectId, experiment.key), () => ({ projectId, experiment: jsonCopy(experiment) }), "experiment", experiment.key),
      list: ofProject,
      get: (projectId, key) =>
        Effect.map(table.get, (map) => Option.map(Option.fromNullable(map.get(scoped(projectId, key))), (row) => jsonCopy(row.experiment))),
      listRunning: (projectId, environment) =>
        Effect.map(ofProject(projectId), (all) =>
          all.filter((experiment) => experiment.status === "running" && (environment === undefined || experiment.environment === environment))),
      update: (projectId, experiment) =>
        table.modify((map) => {
          const id = scoped(projectId, experiment.key)
          const row = map.get(id)
          if (row === undefined) return [false, map]
          const stored: Experiment = { ...jsonCopy(experiment), id: row.experiment.id, createdAt: row.experiment.createdAt }
          return [true, new Map(map).set(id, { projectId, experiment: stored })]
        }).pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new NotFound({ entity: "experiment", key: experiment.key }))))),
      remove: (projectId, key) => removeExisting(table, scoped(projectId, key), "experiment", key)
    })
  })
)
