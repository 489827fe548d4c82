import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Experiment } from "../domain/experiments/Experiment.js"
import type { DuplicateKey, NotFound, StorageError } from "./StorageError.js"

/**
 * Experiments, by project and key. Writes run inside the write's `Transactor.withTransaction`, so
 * an experiment changes together with its audit entry and webhook events, or not at all.
 */
export interface ExperimentRepositoryShape {
  /** Stores a new experiment; `DuplicateKey` when the project has one with its key. */
  readonly insert: (projectId: string, experiment: Experiment) => Effect.Effect<void, DuplicateKey | StorageError>
  /** The project's experiments in creation order. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<Experiment>, StorageError>
  /** One experiment of the project, if it exists. */
  readonly get: (projectId: string, key: string) => Effect.Effect<Option.Option<Experiment>, StorageError>
  /**
   * The project's running experiments (of one environment when named), in creation order: what
   * decides which exposures and metric events are kept.
   */
  readonly listRunning: (projectId: string, environment?: string) => Effect.Effect<ReadonlyArray<Experiment>, StorageError>
  /** Replaces the stored experiment with its key (its id and creation time stay); `NotFound` when there is none. */
  readonly update: (projectId: string, experiment: Experiment) => Effect.Effect<void, NotFound | StorageError>
  /** Deletes the experiment; `NotFound` when there is none. */
  readonly remove: (projectId: string, key: string) => Effect.Effect<void, NotFound | StorageError>
}

export class ExperimentRepository extends Context.Tag("@flagport/ports/ExperimentRepository")<
  ExperimentRepository,
  ExperimentRepositoryShape
>() {}
