/**
 * `GET .../experiments/{key}/units.csv`: an experiment's per-unit rows as CSV (UnitsCsv.ts), for a
 * warehouse. Read as the experiment is (Experiments.get decides who may), then streamed a page of
 * `PAGE_UNITS` units at a time as the client reads: memory stays one page however many units.
 */
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { Forbidden, ResourceNotFound } from "../../domain/Errors.js"
import { csvHeader, csvLine } from "../../domain/experiments/UnitsCsv.js"
import { ExperimentUnitRepository } from "../../ports/ExperimentUnitRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { Experiments } from "./Experiments.js"

/** Units read per query. */
export const PAGE_UNITS = 1000

export interface UnitExportShape {
  /** The CSV's text, in pieces, read lazily; 404 for an unknown project or experiment, 403 when the caller may not read it. */
  readonly csv: (projectId: string, key: string) => Effect.Effect<Stream.Stream<string, StorageError>, ResourceNotFound | Forbidden | StorageError>
}

export class UnitExport extends Context.Tag("@flagport/services/UnitExport")<UnitExport, UnitExportShape>() {}

export const make = Effect.gen(function* () {
  const experiments = yield* Experiments
  const units = yield* ExperimentUnitRepository

  const csv = Effect.fn("UnitExport.csv")(function* (projectId: string, key: string) {
    const experiment = yield* experiments.get(projectId, key)
    const metrics = experiment.metrics.map((m) => ({ key: m.key, kind: m.kind }))
    const keys = metrics.map((m) => m.key)
    const pages = Stream.paginateChunkEffect(null as string | null, (after) =>
      Effect.map(units.unitPage(experiment.id, keys, after, PAGE_UNITS), (rows) => [
        Chunk.unsafeFromArray(rows.map((row) => csvLine(row, metrics))),
        rows.length < PAGE_UNITS ? Option.none() : Option.some(rows[rows.length - 1]!.unit)
      ] as const))
    return Stream.concat(Stream.make(csvHeader(metrics)), pages)
  })

  return UnitExport.of({ csv })
})

export const layer = Layer.effect(UnitExport, make)
