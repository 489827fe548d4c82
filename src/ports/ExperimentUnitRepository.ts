import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { UnitExposure, UnitRow } from "../domain/experiments/Exposure.js"
import type { StorageError } from "./StorageError.js"

/** A batch an SDK may resend: the key that sent it, its id, and when it first arrived (ISO 8601). */
export interface IngestBatch {
  readonly keyId: string
  readonly batchId: string
  readonly receivedAt: string
}

/**
 * The per-unit rows of experiments (docs/guide/experiments.md): raw exposures are not kept, each
 * updates its unit's row. The writes run inside the caller's transaction (the ingestion's group
 * commit, `services/experiments/Ingestion.ts`, writes many requests' items in one).
 */
/** The units of an experiment per variation, as the results and the sample-ratio check count them. */
export interface ExposureCounts {
  readonly perVariation: ReadonlyArray<{ readonly variationKey: string; readonly units: number }>
  readonly inSeveralVariations: number
}

export interface ExperimentUnitRepositoryShape {
  /**
   * Records the batches not recorded before (same key and id) and answers, for each, whether it
   * is new: true once per key and id, for its first occurrence in `batches` too. Call it inside
   * the transaction that writes the batches' items, so a batch is recorded exactly when they are.
   */
  readonly claimBatches: (batches: ReadonlyArray<IngestBatch>) => Effect.Effect<ReadonlyArray<boolean>, StorageError>
  /**
   * Applies the exposures to their units' rows: a unit's first exposure (the earliest instant
   * wins, whatever the order of arrival) and its variation then, and how many distinct variations
   * it was exposed to.
   */
  readonly applyExposures: (exposures: ReadonlyArray<UnitExposure>) => Effect.Effect<void, StorageError>
  /** The experiment's unit rows, ordered by unit. */
  readonly units: (experimentId: string) => Effect.Effect<ReadonlyArray<UnitRow>, StorageError>
  /**
   * How many units each variation has among those exposed to exactly one (ordered by variation),
   * and how many units were exposed to several (the results leave those out).
   */
  readonly exposureCounts: (experimentId: string) => Effect.Effect<ExposureCounts, StorageError>
  /** Deletes every unit row of the experiment (it is being deleted). */
  readonly removeExperiment: (experimentId: string) => Effect.Effect<void, StorageError>
  /** Forgets batches that arrived before `before` (ISO 8601): a resend after that counts again. */
  readonly pruneBatches: (before: string) => Effect.Effect<number, StorageError>
}

export class ExperimentUnitRepository extends Context.Tag("@flagport/ports/ExperimentUnitRepository")<
  ExperimentUnitRepository,
  ExperimentUnitRepositoryShape
>() {}
