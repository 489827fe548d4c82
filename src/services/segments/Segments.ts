import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type ChangeRequestRequired, type Forbidden, InvalidRequest, type Problem, ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import type { Flag } from "../../domain/definitions/Flag.js"
import { type CreateSegmentInput, DEFAULT_KEY_ATTRIBUTE, type PatchSegmentInput, type Segment } from "../../domain/definitions/Segment.js"
import * as Validation from "../../domain/definitions/Validation.js"
import { segmentNotFound } from "../../domain/NotFound.js"
import { SegmentKeyRepository } from "../../ports/SegmentKeyRepository.js"
import { segmentGuard } from "./SegmentGuard.js"
import { configChanged } from "../../ports/ChangeFeed.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { authorize } from "../shared/Authorize.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Writes from "../shared/Writes.js"

type WriteError = InvalidRequest | ResourceNotFound | ResourceConflict | Forbidden | StorageError

/**
 * Each operation is the caller's to ask for (`CurrentCaller`, domain/auth/Permissions.ts): reading
 * needs `read` in the project, writing `write`, and a segment may be used by every environment's
 * rules, so a key bound to one environment writes none (403).
 */
export interface SegmentsShape {
  /** Creates a segment (its key lists matching `keyAttribute`, the context key when not given); 400 for invalid conditions (segments cannot reference segments), 404, 409. */
  readonly create: (projectId: string, input: CreateSegmentInput) => Effect.Effect<Segment, WriteError>
  /** The project's segments in creation order; 404 for an unknown project. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<Segment>, ResourceNotFound | Forbidden | StorageError>
  /** One segment; 404 for an unknown project or segment. */
  readonly get: (projectId: string, segmentKey: string) => Effect.Effect<Segment, ResourceNotFound | Forbidden | StorageError>
  /**
   * Changes name, description, conditions and/or keyAttribute; 400, 404. A person's change is refused while the
   * targeting of a protected environment names the segment (409 `change_request_required`).
   */
  readonly patch: (
    projectId: string,
    segmentKey: string,
    input: PatchSegmentInput
  ) => Effect.Effect<Segment, InvalidRequest | ResourceNotFound | ChangeRequestRequired | Forbidden | StorageError>
  /**
   * Deletes a segment; 409 while any rule of any flag configuration still references it (for a
   * person, `change_request_required` first when that rule is in a protected environment).
   */
  readonly remove: (
    projectId: string,
    segmentKey: string
  ) => Effect.Effect<void, ResourceNotFound | ResourceConflict | ChangeRequestRequired | Forbidden | StorageError>
}

export class Segments extends Context.Tag("@flagport/services/Segments")<Segments, SegmentsShape>() {}

/** Keys of the flags having a rule condition that names the segment. */
export const flagsUsingSegment = (flags: ReadonlyArray<Flag>, segmentKey: string): ReadonlyArray<string> =>
  flags.filter((flag) => Validation.segmentKeysInUse(flag.configs).has(segmentKey)).map((flag) => flag.key)

export const make = Effect.gen(function* () {
  const projects = yield* ProjectRepository
  const segments = yield* SegmentRepository
  const flags = yield* FlagRepository
  const keyLists = yield* SegmentKeyRepository
  const ids = yield* IdGenerator
  const writes = yield* Writes.writer

  /** Every environment's snapshot carries every segment, so a segment change concerns them all. */
  const segmentChanged = (projectId: string, revision: number, segmentKey: string) =>
    configChanged(projectId, revision, "segment", { environments: "all", segmentKeys: [segmentKey] })

  const { guardWrite: guardSegmentWrite, load } = yield* segmentGuard

  const check = (problems: ReadonlyArray<Problem>) =>
    problems.length > 0 ? Effect.fail(new InvalidRequest({ message: "Invalid segment", details: [...problems] })) : Effect.void

  const create = Effect.fn("Segments.create")(function* (projectId: string, input: CreateSegmentInput) {
    yield* authorize("Segments.create", projectId)
    yield* check(Validation.validateCreateSegment(input))
    const id = yield* ids.next
    return yield* writes.serving(projectId, ({ now, revision }) => {
      const segment: Segment = {
        id,
        projectId,
        key: input.key,
        name: input.name,
        description: input.description ?? null,
        conditions: input.conditions,
        keyAttribute: input.keyAttribute ?? DEFAULT_KEY_ATTRIBUTE,
        createdAt: now,
        updatedAt: now
      }
      return segments.insert(segment).pipe(
        Effect.catchTag("DuplicateKey", () =>
          Effect.fail(new ResourceConflict({ message: `Segment '${input.key}' already exists in project '${projectId}'` }))
        ),
        Effect.as({
          value: segment,
          audit: [{ action: "segment.created", resource: { type: "segment", key: segment.key }, before: null, after: segment }],
          change: segmentChanged(projectId, revision, segment.key)
        } satisfies Writes.Written<Segment>)
      )
    })
  })

  const list = Effect.fn("Segments.list")(function* (projectId: string) {
    yield* authorize("Segments.list", projectId)
    yield* requireProject(projects, projectId)
    return yield* segments.list(projectId)
  })

  const get = Effect.fn("Segments.get")(function* (projectId: string, segmentKey: string) {
    yield* authorize("Segments.get", projectId)
    const found = yield* segments.get(projectId, segmentKey)
    if (Option.isSome(found)) return found.value
    yield* requireProject(projects, projectId)
    return yield* segmentNotFound(projectId, segmentKey)
  })

  const patch = Effect.fn("Segments.patch")(function* (projectId: string, segmentKey: string, input: PatchSegmentInput) {
    yield* authorize("Segments.patch", projectId)
    yield* check(Validation.validateSegmentFields(input))
    yield* guardSegmentWrite(projectId, segmentKey)
    return yield* writes.serving(projectId, ({ now, revision }) =>
      Effect.gen(function* () {
        const segment = yield* load(projectId, segmentKey)
        const updated: Segment = {
          ...segment,
          name: input.name ?? segment.name,
          description: input.description !== undefined ? input.description : segment.description,
          conditions: input.conditions ?? segment.conditions,
          keyAttribute: input.keyAttribute ?? segment.keyAttribute,
          updatedAt: now
        }
        yield* segments.update(updated).pipe(Effect.catchTag("NotFound", Effect.die))
        return {
          value: updated,
          audit: [{ action: "segment.updated", resource: { type: "segment", key: segmentKey }, before: segment, after: updated }],
          change: segmentChanged(projectId, revision, segmentKey)
        } satisfies Writes.Written<Segment>
      })
    )
  })

  const remove = Effect.fn("Segments.remove")(function* (projectId: string, segmentKey: string) {
    yield* authorize("Segments.remove", projectId)
    yield* guardSegmentWrite(projectId, segmentKey)
    const forgotten = yield* writes.serving(projectId, ({ revision }) =>
      Effect.gen(function* () {
        const segment = yield* load(projectId, segmentKey)
        const all = yield* flags.list(projectId)
        const users = flagsUsingSegment(all, segmentKey)
        if (users.length > 0) {
          return yield* new ResourceConflict({
            message: `Segment '${segmentKey}' is still used by flag(s) ${users.map((k) => `'${k}'`).join(", ")}`
          })
        }
        yield* segments.remove(projectId, segmentKey).pipe(Effect.catchTag("NotFound", Effect.die))
        const lists = yield* keyLists.forget(segment.id)
        return {
          value: lists,
          audit: [{ action: "segment.deleted", resource: { type: "segment", key: segmentKey }, before: segment, after: null }],
          change: segmentChanged(projectId, revision, segmentKey)
        } satisfies Writes.Written<typeof lists>
      })
    )
    // Its keys go once it is gone, in short writes of their own (SegmentKeyRepository.drop).
    yield* Effect.forEach(forgotten, ({ generation }) => keyLists.drop(generation), { discard: true })
  })

  return Segments.of({ create, list, get, patch, remove })
})

export const layer = Layer.effect(Segments, make)
