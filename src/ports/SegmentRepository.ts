import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Segment } from "../domain/definitions/Segment.js"
import type { DuplicateKey, NotFound, StorageError } from "./StorageError.js"

export interface SegmentRepositoryShape {
  /** Stores a new segment. Fails with `DuplicateKey` when its key exists in the project. */
  readonly insert: (segment: Segment) => Effect.Effect<void, DuplicateKey | StorageError>
  /** The segments of a project, in creation order. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<Segment>, StorageError>
  /** One segment by project and key, if any. */
  readonly get: (projectId: string, key: string) => Effect.Effect<Option.Option<Segment>, StorageError>
  /**
   * Replaces name, description, conditions and updatedAt of the segment found by
   * `segment.projectId` and `segment.key`. Fails with `NotFound` when it does not exist.
   */
  readonly update: (segment: Segment) => Effect.Effect<void, NotFound | StorageError>
  /** Deletes a segment. Fails with `NotFound` when it does not exist. */
  readonly remove: (projectId: string, key: string) => Effect.Effect<void, NotFound | StorageError>
}

export class SegmentRepository extends Context.Tag("@flagport/ports/SegmentRepository")<
  SegmentRepository,
  SegmentRepositoryShape
>() {}
