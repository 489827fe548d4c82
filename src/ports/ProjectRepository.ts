import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Project } from "../domain/definitions/Project.js"
import type { DuplicateKey, NotFound, StorageError } from "./StorageError.js"

export interface ProjectRepositoryShape {
  /** Stores a new project with snapshot revision 1. Fails with `DuplicateKey` when the id exists. */
  readonly insert: (project: Project) => Effect.Effect<void, DuplicateKey | StorageError>
  /** Every project, in creation order. */
  readonly list: () => Effect.Effect<ReadonlyArray<Project>, StorageError>
  /** The project with this id, if any. */
  readonly get: (id: string) => Effect.Effect<Option.Option<Project>, StorageError>
  /**
   * Adds one to the project's snapshot revision and returns the new value. Every write that can
   * change a snapshot of the project calls it first in its transaction: on PostgreSQL this also
   * locks the project row, so writes to one project serialize (no lost updates, no deadlocks).
   * Fails with `NotFound` when the project does not exist.
   */
  readonly bumpRevision: (id: string) => Effect.Effect<number, NotFound | StorageError>
  /** The current snapshot revision of the project, or none when it does not exist. */
  readonly revision: (id: string) => Effect.Effect<Option.Option<number>, StorageError>
}

export class ProjectRepository extends Context.Tag("@flagport/ports/ProjectRepository")<
  ProjectRepository,
  ProjectRepositoryShape
>() {}
