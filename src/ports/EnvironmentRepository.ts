import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../domain/definitions/Project.js"
import type { DuplicateKey, NotFound, StorageError } from "./StorageError.js"

export interface EnvironmentRepositoryShape {
  /**
   * Stores a new environment. Fails with `DuplicateKey` when the project already has one with
   * this key. The project must exist (the service checks it first).
   */
  readonly insert: (environment: Environment) => Effect.Effect<void, DuplicateKey | StorageError>
  /** The environments of a project, in creation order (empty for an unknown project). */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<Environment>, StorageError>
  /**
   * Replaces the settings of an existing environment (found by project and key) with those of
   * `environment` (its name and `clientConfig`; id, key and creation time stay). NotFound when
   * there is none.
   */
  readonly update: (environment: Environment) => Effect.Effect<void, NotFound | StorageError>
  /** One environment by project and key, if any. */
  readonly get: (projectId: string, key: string) => Effect.Effect<Option.Option<Environment>, StorageError>
}

export class EnvironmentRepository extends Context.Tag("@flagport/ports/EnvironmentRepository")<
  EnvironmentRepository,
  EnvironmentRepositoryShape
>() {}
