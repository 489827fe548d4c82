import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import * as Migrations from "../../adapters/sql/Migrations.js"
import * as SqlExperimentUnitRepository from "../../adapters/sql/SqlExperimentUnitRepository.js"
import { exposureCountsOf, metricArmsOf } from "../../src/domain/experiments/AnalysisTotals.js"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import { freshPostgres, freshSqlite } from "../fixtures/databases.js"
import { schemaBefore } from "../fixtures/SchemaBefore.js"

/**
 * Upgrading to 0032_analysis_totals in place: the unit and metric rows stored before it are
 * counted into the new totals once (the backfill), equal to the full aggregate; rows written
 * afterwards are counted by the triggers on top. SQLite and PostgreSQL.
 */

const AT = "2026-12-01T00:00:00.000Z"

const upgrade = (name: string, database: () => Layer.Layer<SqlClient.SqlClient, StorageError>) =>
  it.effect(`existing experiments' rows are counted once (${name})`, () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* schemaBefore("0032")
      // e1: u1 and u2 in one variation each, u3 in two (left out); e2 elsewhere.
      for (const [experiment, unit, variation, seen] of [["e1", "u1", "a", 1], ["e1", "u2", "b", 1], ["e1", "u3", "a", 2], ["e2", "u1", "a", 1]] as const) {
        yield* sql`INSERT INTO flagport_experiment_units (experiment_id, unit, first_exposure_at, variation_key, variations_seen)
          VALUES (${experiment}, ${unit}, ${AT}, ${variation}, ${seen})`
      }
      for (const [experiment, metric, unit, variation, seen, postSum, postCount, preSum, preCount] of [
        ["e1", "m", "u1", "a", 1, 12.5, 2, 3, 1],
        ["e1", "m", "u2", "b", 1, 0, 0, 4, 2],
        ["e1", "m", "u3", "a", 2, 100, 1, 0, 0],
        ["e1", "n", "u2", "b", 1, 7, 1, 0, 0],
        ["e2", "m", "u1", "a", 1, 1, 1, 0, 0]
      ] as const) {
        yield* sql`INSERT INTO flagport_experiment_unit_metrics (experiment_id, metric_key, unit, variation_key, variations_seen, post_sum, post_count, pre_sum, pre_count)
          VALUES (${experiment}, ${metric}, ${unit}, ${variation}, ${seen}, ${postSum}, ${postCount}, ${preSum}, ${preCount})`
      }

      expect((yield* Migrations.run).map(([, migration]) => migration)[0]).toBe("analysis_totals")
      const repo = yield* Effect.provide(ExperimentUnitRepository, SqlExperimentUnitRepository.layer)
      const check = Effect.gen(function* () {
        for (const experiment of ["e1", "e2"]) {
          const totals = yield* repo.analysisTotals(experiment)
          expect(exposureCountsOf(totals)).toEqual(yield* repo.exposureCounts(experiment))
          for (const metric of [{ key: "m", kind: "conversion" }, { key: "m", kind: "mean" }, { key: "n", kind: "mean" }] as const) {
            expect(metricArmsOf(totals, metric)).toEqual(yield* repo.metricArms(experiment, metric))
          }
        }
      })
      yield* check
      expect(exposureCountsOf(yield* repo.analysisTotals("e1"))).toEqual({ perVariation: [{ variationKey: "a", units: 1 }, { variationKey: "b", units: 1 }], inSeveralVariations: 1 })
      expect(metricArmsOf(yield* repo.analysisTotals("e1"), { key: "m", kind: "mean" })).toEqual([
        { variationKey: "a", moments: { n: 1, sum: 12.5, sumSquares: 156.25, preSum: 3, preSumSquares: 9, crossSum: 37.5 } },
        { variationKey: "b", moments: { n: 1, sum: 0, sumSquares: 0, preSum: 4, preSumSquares: 16, crossSum: 0 } }
      ])
      // After the upgrade the triggers count new rows on top of the backfill.
      yield* repo.applyItems(
        [{ experimentId: "e1", unit: "u4", variationKey: "b", at: Date.parse(AT) }],
        [{ experimentId: "e1", metricKey: "m", unit: "u4", at: Date.parse(AT) + 1000, value: 2, windowMs: null, preWindowMs: 0 }]
      )
      yield* check
      expect(exposureCountsOf(yield* repo.analysisTotals("e1")).perVariation).toEqual([{ variationKey: "a", units: 1 }, { variationKey: "b", units: 2 }])
    }).pipe(Effect.provide(Layer.orDie(database()))))

describe("migration 0032_analysis_totals", () => {
  upgrade("sqlite", freshSqlite)
  upgrade("postgres", freshPostgres)
})
