import { Context, Effect, Layer, Option } from "effect"
import { InvalidRequest, type Problem, ResourceConflict, ResourceNotFound } from "../domain/Errors.js"
import type { Flag } from "../domain/definitions/Flag.js"
import type { CreateSegmentInput, PatchSegmentInput, Segment } from "../domain/definitions/Segment.js"
import * as Validation from "../domain/definitions/Validation.js"
import { ChangeFeed } from "../ports/ChangeFeed.js"
import { FlagRepository } from "../ports/FlagRepository.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { ProjectRepository } from "../ports/ProjectRepository.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import type { StorageError } from "../ports/StorageError.js"
import { Transactor } from "../ports/Transactor.js"
import * as AuditTrail from "./AuditTrail.js"
import { bumpRevision, commitAndAnnounce, configChanged, currentTimestamp, requireProject } from "./Shared.js"

type WriteError = InvalidRequest | ResourceNotFound | ResourceConflict | StorageError

export interface SegmentsShape {
  /** Creates a segment; 400 for invalid conditions (segments cannot reference segments), 404, 409. */
  readonly create: (projectId: string, input: CreateSegmentInput) => Effect.Effect<Segment, WriteError>
  /** The project's segments in creation order; 404 for an unknown project. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<Segment>, ResourceNotFound | StorageError>
  /** One segment; 404 for an unknown project or segment. */
  readonly get: (projectId: string, segmentKey: string) => Effect.Effect<Segment, ResourceNotFound | StorageError>
  /** Changes name, description and/or conditions; 400, 404. */
  readonly patch: (
    projectId: string,
    segmentKey: string,
    input: PatchSegmentInput
  ) => Effect.Effect<Segment, InvalidRequest | ResourceNotFound | StorageError>
  /** Deletes a segment; 409 while any rule of any flag configuration still references it. */
  readonly remove: (
    projectId: string,
    segmentKey: string
  ) => Effect.Effect<void, ResourceNotFound | ResourceConflict | StorageError>
}

export class Segments extends Context.Tag("@flagport/services/Segments")<Segments, SegmentsShape>() {}

const segmentNotFound = (projectId: string, key: string) =>
  new ResourceNotFound({ message: `Segment '${key}' not found in project '${projectId}'` })

/** Keys of the flags having a rule condition that names the segment. */
export const flagsUsingSegment = (flags: ReadonlyArray<Flag>, segmentKey: string): ReadonlyArray<string> =>
  flags.filter((flag) => Validation.segmentKeysInUse(flag.configs).has(segmentKey)).map((flag) => flag.key)

export const make = Effect.gen(function* () {
  const projects = yield* ProjectRepository
  const segments = yield* SegmentRepository
  const flags = yield* FlagRepository
  const ids = yield* IdGenerator
  const tx = yield* Transactor
  const feed = yield* ChangeFeed
  const audit = yield* AuditTrail.recorder

  /** Every environment's snapshot carries every segment, so a segment change concerns them all. */
  const segmentChanged = (projectId: string, revision: number, segmentKey: string) =>
    configChanged(projectId, revision, "segment", { environments: "all", segmentKeys: [segmentKey] })

  const load = (projectId: string, key: string) =>
    segments.get(projectId, key).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(segmentNotFound(projectId, key)), onSome: Effect.succeed }))
    )

  const check = (problems: ReadonlyArray<Problem>) =>
    problems.length > 0 ? Effect.fail(new InvalidRequest({ message: "Invalid segment", details: [...problems] })) : Effect.void

  const create = Effect.fn("Segments.create")(function* (projectId: string, input: CreateSegmentInput) {
    yield* check(Validation.validateCreateSegment(input))
    const now = yield* currentTimestamp
    const id = yield* ids.next
    const segment: Segment = {
      id,
      projectId,
      key: input.key,
      name: input.name,
      description: input.description ?? null,
      conditions: input.conditions,
      createdAt: now,
      updatedAt: now
    }
    return yield* commitAndAnnounce(
      tx,
      feed,
      Effect.gen(function* () {
        const revision = yield* bumpRevision(projects, projectId)
        yield* segments.insert(segment).pipe(
          Effect.catchTag("DuplicateKey", () =>
            Effect.fail(new ResourceConflict({ message: `Segment '${input.key}' already exists in project '${projectId}'` }))
          )
        )
        yield* audit({ projectId, at: now, action: "segment.created", resource: { type: "segment", key: segment.key }, before: null, after: segment })
        return [segment, segmentChanged(projectId, revision, segment.key)] as const
      })
    )
  })

  const list = Effect.fn("Segments.list")(function* (projectId: string) {
    yield* requireProject(projects, projectId)
    return yield* segments.list(projectId)
  })

  const get = Effect.fn("Segments.get")(function* (projectId: string, segmentKey: string) {
    const found = yield* segments.get(projectId, segmentKey)
    if (Option.isSome(found)) return found.value
    yield* requireProject(projects, projectId)
    return yield* segmentNotFound(projectId, segmentKey)
  })

  const patch = Effect.fn("Segments.patch")(function* (projectId: string, segmentKey: string, input: PatchSegmentInput) {
    yield* check(Validation.validateSegmentFields(input))
    const now = yield* currentTimestamp
    return yield* commitAndAnnounce(
      tx,
      feed,
      Effect.gen(function* () {
        const revision = yield* bumpRevision(projects, projectId)
        const segment = yield* load(projectId, segmentKey)
        const updated: Segment = {
          ...segment,
          name: input.name ?? segment.name,
          description: input.description !== undefined ? input.description : segment.description,
          conditions: input.conditions ?? segment.conditions,
          updatedAt: now
        }
        yield* segments.update(updated).pipe(Effect.catchTag("NotFound", Effect.die))
        yield* audit({ projectId, at: now, action: "segment.updated", resource: { type: "segment", key: segmentKey }, before: segment, after: updated })
        return [updated, segmentChanged(projectId, revision, segmentKey)] as const
      })
    )
  })

  const remove = Effect.fn("Segments.remove")(function* (projectId: string, segmentKey: string) {
    const now = yield* currentTimestamp
    yield* commitAndAnnounce(
      tx,
      feed,
      Effect.gen(function* () {
        const revision = yield* bumpRevision(projects, projectId)
        const segment = yield* load(projectId, segmentKey)
        const users = flagsUsingSegment(yield* flags.list(projectId), segmentKey)
        if (users.length > 0) {
          return yield* new ResourceConflict({
            message: `Segment '${segmentKey}' is still used by flag(s) ${users.map((k) => `'${k}'`).join(", ")}`
          })
        }
        yield* segments.remove(projectId, segmentKey).pipe(Effect.catchTag("NotFound", Effect.die))
        yield* audit({ projectId, at: now, action: "segment.deleted", resource: { type: "segment", key: segmentKey }, before: segment, after: null })
        return [undefined, segmentChanged(projectId, revision, segmentKey)] as const
      })
    )
  })

  return Segments.of({ create, list, get, patch, remove })
})

export const layer = Layer.effect(Segments, make)
