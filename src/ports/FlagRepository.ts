import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { SnapshotFlag } from "../domain/evaluation/ConfigSnapshot.js"
import type { Flag } from "../domain/definitions/Flag.js"
import type { EnvironmentConfig } from "../domain/definitions/Targeting.js"
import type { DuplicateKey, NotFound, StorageError, VersionConflict } from "./StorageError.js"

/**
 * Flags are stored as aggregates: the definition shared by the project plus one configuration
 * per environment. Every config's `environmentKey` must name an existing environment of the
 * project. JSON values (variation values, rules) round-trip exactly as JSON does.
 *
 * Each config also records the version its environment serves (ConfigVersion.ts): the flag's
 * version as of the last write that changed that config or the flag's variations. It is not part
 * of `Flag`; `snapshotFlags` reads it.
 */
export interface FlagRepositoryShape {
  /** Stores a new flag with its configs (each serving `flag.version`). Fails with `DuplicateKey` when the key exists in the project. */
  readonly insert: (projectId: string, flag: Flag) => Effect.Effect<void, DuplicateKey | StorageError>
  /** The flags of a project in creation order, each with its configs in environment creation order. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<Flag>, StorageError>
  /**
   * The flags of a project that require another flag in some environment (a config with
   * prerequisites), as `list` orders them: all a flag's usage needs of the others (only they can
   * make it count as evaluated), without reading the whole project on every write.
   */
  readonly listRequiring: (projectId: string) => Effect.Effect<ReadonlyArray<Flag>, StorageError>
  /** One flag with its configs, if any. */
  readonly get: (projectId: string, key: string) => Effect.Effect<Option.Option<Flag>, StorageError>
  /**
   * Replaces the stored flag (found by project and `flag.key`) with `flag` whole: name,
   * description, variations, version, updatedAt and every config. `id`, `type` and `createdAt`
   * are kept as stored. Fails with `NotFound` when the flag does not exist. A config serves
   * `flag.version` when it or the variations differ from the stored ones; else it keeps its version.
   *
   * Compare-and-set: the write happens only if the stored version is still `expectedVersion`,
   * checked by the same statement that writes (so two writers based on one version can never
   * both succeed, whatever the isolation level); otherwise `VersionConflict` with the stored version.
   */
  readonly update: (
    projectId: string,
    flag: Flag,
    expectedVersion: number
  ) => Effect.Effect<void, NotFound | VersionConflict | StorageError>
  /**
   * Like `update`, but writes only the config of `environmentKey` (inserted or replaced) besides
   * the definition: for PUT targeting, where the other configs are unchanged. Fails with
   * `NotFound` when the flag does not exist; `flag.configs` must hold that environment's config,
   * which serves `flag.version` from then on (the others keep their versions).
   * Compare-and-set on `expectedVersion` as `update`.
   */
  readonly updateConfig: (
    projectId: string,
    flag: Flag,
    environmentKey: string,
    expectedVersion: number
  ) => Effect.Effect<void, NotFound | VersionConflict | StorageError>
  /**
   * Bulk write for a new environment: inserts `configs` (exactly one per flag of the project, by
   * flag key, each for `environmentKey`) and grows the version of every flag of the project by one,
   * setting its updatedAt; each new config serves its flag's new version, the others keep theirs. Fails with a StorageError when `configs` does not cover every flag.
   */
  readonly addEnvironmentConfigs: (
    projectId: string,
    environmentKey: string,
    configs: ReadonlyArray<{ readonly flagKey: string; readonly config: EnvironmentConfig }>,
    updatedAt: string
  ) => Effect.Effect<void, StorageError>
  /**
   * Deletes a flag and all its configs. Fails with `NotFound` when the flag does not exist. With
   * `expectedVersion`, only if the stored version is still that one (else `VersionConflict`).
   */
  readonly remove: (
    projectId: string,
    key: string,
    expectedVersion?: number
  ) => Effect.Effect<void, NotFound | VersionConflict | StorageError>
  /**
   * Every flag of the project merged with its config for one environment, in flag creation order:
   * the `flags` of `GET /v1/config`, each with the version that config serves. Flags without a
   * config for that environment are left out.
   */
  readonly snapshotFlags: (
    projectId: string,
    environmentKey: string
  ) => Effect.Effect<ReadonlyArray<SnapshotFlag>, StorageError>
}

export class FlagRepository extends Context.Tag("@flagport/ports/FlagRepository")<FlagRepository, FlagRepositoryShape>() {}
