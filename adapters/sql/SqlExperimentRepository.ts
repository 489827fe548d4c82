import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Experiment } from "../../src/domain/experiments/Experiment.js"
import { ExperimentRepository } from "../../src/ports/ExperimentRepository.js"
import { NotFound } from "../../src/ports/StorageError.js"
import { decodeRows, IdRow } from "./SqlRows.js"
import { orDuplicate, orFail } from "./SqlSupport.js"

/**
 * ExperimentRepository over @effect/sql (PostgreSQL and SQLite; table in
 * migrations/0020_experiments.ts): the experiment as JSON text, its status and environment beside
 * it for the queries that filter on them.
 */

const Row = Schema.Struct({ body: Schema.parseJson(Experiment) })

const decodeExperiments = decodeRows(Row, "flagport_experiments")
const decodeIds = decodeRows(IdRow, "flagport_experiments")

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const bodies = (rows: ReadonlyArray<typeof Row.Type>) => rows.map((row) => row.body)

  return ExperimentRepository.of({
    insert: (projectId, experiment) =>
      orDuplicate("experiment", experiment.key)(
        sql`INSERT INTO flagport_experiments ${sql.insert({
          id: experiment.id,
          project_id: projectId,
          key: experiment.key,
          environment: experiment.environment,
          status: experiment.status,
          body: JSON.stringify(experiment)
        })}`
      ).pipe(Effect.asVoid),
    list: (projectId) =>
      orFail(sql`SELECT body FROM flagport_experiments WHERE project_id = ${projectId} ORDER BY seq`).pipe(
        Effect.flatMap(decodeExperiments),
        Effect.map(bodies)
      ),
    get: (projectId, key) =>
      orFail(sql`SELECT body FROM flagport_experiments WHERE project_id = ${projectId} AND key = ${key}`).pipe(
        Effect.flatMap(decodeExperiments),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.body))
      ),
    listRunning: (projectId, environment) =>
      orFail(sql`SELECT body FROM flagport_experiments WHERE project_id = ${projectId} AND status = 'running'
        ${environment === undefined ? sql.literal("") : sql`AND environment = ${environment}`} ORDER BY seq`).pipe(
        Effect.flatMap(decodeExperiments),
        Effect.map(bodies)
      ),
    // The id and the creation time are the stored row's: an update never changes them.
    update: (projectId, experiment) =>
      Effect.gen(function* () {
        const found = yield* orFail(sql`SELECT body FROM flagport_experiments WHERE project_id = ${projectId} AND key = ${experiment.key}`).pipe(
          Effect.flatMap(decodeExperiments)
        )
        const current = found[0]?.body
        if (current === undefined) return yield* new NotFound({ entity: "experiment", key: experiment.key })
        const stored: Experiment = { ...experiment, id: current.id, createdAt: current.createdAt }
        yield* orFail(sql`UPDATE flagport_experiments
          SET environment = ${stored.environment}, status = ${stored.status}, body = ${JSON.stringify(stored)}
          WHERE project_id = ${projectId} AND key = ${experiment.key}`)
      }),
    remove: (projectId, key) =>
      orFail(sql`DELETE FROM flagport_experiments WHERE project_id = ${projectId} AND key = ${key} RETURNING id`).pipe(
        Effect.flatMap(decodeIds),
        Effect.flatMap((rows) => (rows.length === 0 ? Effect.fail(new NotFound({ entity: "experiment", key })) : Effect.void))
      )
  })
})

/** The SQL ExperimentRepository; needs the SqlClient of the storage layer (migrations applied). */
export const layer: Layer.Layer<ExperimentRepository, never, SqlClient.SqlClient> = Layer.effect(ExperimentRepository, make)
