/**
 * What a change request pins, and the apply's check of it: each flag's version (`baseVersion`), each
 * release plan's version (PlanChange: the approvers approved the plan as a whole) and each segment
 * its rules name (PinnedSegment: the approvers approved its conditions along with the diff). Read
 * inside the apply's transaction, so nothing approved can be widened underneath it.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type Change, type PinnedSegment, segmentKeysOf } from "../../domain/changes/ChangeRequest.js"
import type { PlanChange } from "../../domain/changes/PlanChange.js"
import { ChangeRequestMessages } from "../../domain/changes/ChangeRequestRules.js"
import type { Segment } from "../../domain/definitions/Segment.js"
import { ResourceConflict } from "../../domain/Errors.js"
import { canonicalJson } from "../../domain/JsonRecord.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { ReleasePlanRepository } from "../../ports/ReleasePlanRepository.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"

const pinOf = (segment: Segment): PinnedSegment => ({ key: segment.key, name: segment.name, conditions: segment.conditions, updatedAt: segment.updatedAt })

/** Conditions compared as JSON values (stored JSON may come back with its keys in another order). */
const sameConditions = (a: PinnedSegment["conditions"], b: PinnedSegment["conditions"]) => canonicalJson(a) === canonicalJson(b)

export const pins = Effect.gen(function* () {
  const flagRepo = yield* FlagRepository
  const segments = yield* SegmentRepository
  const plans = yield* ReleasePlanRepository

  /** The segments `changes` name, as they are now (each exists: the changes passed the PUT's checks). */
  const pinSegments = (projectId: string, changes: ReadonlyArray<Change>) =>
    Effect.map(
      Effect.forEach(segmentKeysOf(changes), (key) => segments.get(projectId, key)),
      (found) => found.flatMap((segment) => (Option.isSome(segment) ? [pinOf(segment.value)] : []))
    )

  /** 409 naming the flags that moved on, else the plans, else the segments that are gone or changed; nothing when all stand. */
  const movedOn = (
    projectId: string,
    request: { readonly changes: ReadonlyArray<Change>; readonly releasePlans: ReadonlyArray<PlanChange>; readonly segments: ReadonlyArray<PinnedSegment> }
  ) =>
    Effect.gen(function* () {
      const moved: Array<string> = []
      for (const change of request.changes) {
        const flag = yield* flagRepo.get(projectId, change.flagKey)
        if (Option.isNone(flag) || flag.value.version !== change.baseVersion) moved.push(change.flagKey)
      }
      if (moved.length > 0) return Option.some(new ResourceConflict({ message: ChangeRequestMessages.movedOn(moved) }))
      const plansMoved: Array<string> = []
      for (const change of request.releasePlans) {
        const plan = yield* plans.get(projectId, change.flagKey, change.planId)
        if (Option.isNone(plan) || plan.value.version !== change.baseVersion) plansMoved.push(change.planId)
      }
      if (plansMoved.length > 0) return Option.some(new ResourceConflict({ message: ChangeRequestMessages.plansMovedOn(plansMoved) }))
      const changed: Array<string> = []
      for (const pinned of request.segments) {
        const now = yield* segments.get(projectId, pinned.key)
        if (Option.isNone(now) || now.value.updatedAt !== pinned.updatedAt || !sameConditions(now.value.conditions, pinned.conditions)) changed.push(pinned.key)
      }
      return changed.length > 0 ? Option.some(new ResourceConflict({ message: ChangeRequestMessages.segmentsMovedOn(changed) })) : Option.none()
    })

  return { pinSegments, movedOn }
})
