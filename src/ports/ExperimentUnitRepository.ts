import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { AnalysisTotals, ExposureCounts } from "../domain/experiments/AnalysisTotals.js"
import type { UnitExposure, UnitRow } from "../domain/experiments/Exposure.js"
import type { UnitEvent } from "../domain/experiments/MetricEvent.js"
import type { MeasuredMetric, MetricArmTotals, UnitMetricRow } from "../domain/experiments/UnitMetrics.js"
import type { UnitExportRow } from "../domain/experiments/UnitsCsv.js"
import type { StorageError } from "./StorageError.js"

/** The route a batch was sent to: exposures and metric events name their batches apart. */
export type IngestRoute = "exposures" | "track"

/**
 * A batch an SDK may resend: the key that sent it, the route it was sent to, its id, and when it
 * first arrived (ISO 8601). A batch is one per key, route and id: an exposure batch and a metric
 * event batch with the same id are two batches.
 */
export interface IngestBatch {
  readonly keyId: string
  readonly route: IngestRoute
  readonly batchId: string
  readonly receivedAt: string
}

/**
 * The per-unit rows of experiments (docs/guide/experiments.md): raw exposures are not kept, each
 * updates its unit's row. The writes run inside the caller's transaction (the ingestion's group
 * commit, `services/experiments/Ingestion.ts`, writes many requests' items in one).
 *
 * Metric events update their unit's metric rows (`UnitMetrics.ts` defines what each counts for).
 * The figures equal the definition for the events and exposures received, whatever their order:
 * an event may arrive before its unit's exposure, and a late exposure may move a unit's first
 * exposure earlier. So an event is also kept, raw, while that can still happen: until its unit's
 * first exposure is older than the oldest timestamp an item may carry (then no exposure can
 * arrive before it), or, for a unit not exposed yet, until no exposure could still make it a
 * covariate. `pruneEvents` forgets them then.
 */
export type { ExposureCounts }

export interface ExperimentUnitRepositoryShape {
  /**
   * Records the batches not recorded before (same key, route and id) and answers, for each, whether it
   * is new: true once per key, route and id, for its first occurrence in `batches` too. Call it inside
   * the transaction that writes the batches' items, so a batch is recorded exactly when they are.
   */
  readonly claimBatches: (batches: ReadonlyArray<IngestBatch>) => Effect.Effect<ReadonlyArray<boolean>, StorageError>
  /**
   * Applies exposures and metric events to their units' rows, in the caller's transaction.
   * Exposures: a unit's first exposure (the earliest instant wins, whatever the order of arrival)
   * and its variation then, and how many distinct variations it was exposed to; a unit whose first
   * exposure moves has its metric rows counted again from its raw events. Events: each counts in
   * its unit's metric row when the unit is exposed, and is kept raw while a late exposure could
   * change what it counts for. One call for both, so the units they touch are locked once, in one
   * order (PostgreSQL), whatever a round holds.
   */
  readonly applyItems: (exposures: ReadonlyArray<UnitExposure>, events: ReadonlyArray<UnitEvent>) => Effect.Effect<void, StorageError>
  /** The experiment's metric rows of exposed units whose events count for something, ordered by metric and unit. */
  readonly metricRows: (experimentId: string) => Effect.Effect<ReadonlyArray<UnitMetricRow>, StorageError>
  /**
   * The aggregate the results analyse: per variation of the experiment, the sufficient statistics
   * of `metric` over its units exposed to that variation only, ordered by variation. One query
   * per metric over the metric's rows.
   */
  readonly metricArms: (experimentId: string, metric: MeasuredMetric) => Effect.Effect<ReadonlyArray<MetricArmTotals>, StorageError>
  /**
   * The running totals of an analysis (domain/experiments/AnalysisTotals.ts): its units per
   * variation and each metric's sufficient statistics per variation, kept by delta in the
   * transaction of every write to its unit and metric rows, so reading them costs the number of
   * variations and metrics, not of units. `analysisId` is the id the unit rows are written under
   * (an experiment's id). Equal to `exposureCounts` and `metricArms` (the full aggregate, kept as
   * their reference) after every write; doubles summed in another order may differ in their last
   * bits.
   */
  readonly analysisTotals: (analysisId: string) => Effect.Effect<AnalysisTotals, StorageError>
  /**
   * Forgets raw events no exposure can reclassify any more, given that every exposure from now
   * on is at or after `horizon` (epoch milliseconds): those of units first exposed before it, and
   * those of units not exposed yet that lie more than their pre-window before it. Answers how many.
   */
  readonly pruneEvents: (horizon: number) => Effect.Effect<number, StorageError>
  /**
   * One page of the experiment's unit rows with their figures for `metricKeys`, ordered by unit:
   * at most `limit` rows after the unit `after` (from the first when null). What `units.csv`
   * streams, a page at a time.
   */
  readonly unitPage: (
    experimentId: string,
    metricKeys: ReadonlyArray<string>,
    after: string | null,
    limit: number
  ) => Effect.Effect<ReadonlyArray<UnitExportRow>, StorageError>
  /** The experiment's unit rows, ordered by unit. */
  readonly units: (experimentId: string) => Effect.Effect<ReadonlyArray<UnitRow>, StorageError>
  /**
   * How many units each variation has among those exposed to exactly one (ordered by variation),
   * and how many units were exposed to several (the results leave those out).
   */
  readonly exposureCounts: (experimentId: string) => Effect.Effect<ExposureCounts, StorageError>
  /** Deletes every unit and metric row of the experiment, and its totals (it is being deleted). */
  readonly removeExperiment: (experimentId: string) => Effect.Effect<void, StorageError>
  /**
   * Deletes, as `removeExperiment` does, every analysis whose id starts with `prefix`: a release
   * plan's runs (`plan:<id>@<run start>`, domain/releaseplans/PlanAnalysis.ts) when it is deleted,
   * whichever runs it had. The prefix is taken literally (`%` and `_` are no wildcards).
   */
  readonly removeAnalyses: (prefix: string) => Effect.Effect<void, StorageError>
  /** Forgets batches that arrived before `before` (ISO 8601): a resend after that counts again. */
  readonly pruneBatches: (before: string) => Effect.Effect<number, StorageError>
}

export class ExperimentUnitRepository extends Context.Tag("@flagport/ports/ExperimentUnitRepository")<
  ExperimentUnitRepository,
  ExperimentUnitRepositoryShape
>() {}
