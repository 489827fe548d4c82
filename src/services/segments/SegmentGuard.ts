/**
 * What every write of a segment asks first, its definition or its key lists alike: the segment
 * (404), and whether a person may change it while a protected environment's targeting names it.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { segmentNotFound } from "../../domain/NotFound.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"
import * as Protection from "../shared/Protection.js"

export const segmentGuard = Effect.gen(function* () {
  const segments = yield* SegmentRepository
  const flags = yield* FlagRepository
  const protection = yield* Protection.guards

  /** The segment, or its 404. */
  const load = (projectId: string, key: string) =>
    segments.get(projectId, key).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(segmentNotFound(projectId, key)), onSome: Effect.succeed }))
    )

  /**
   * A person changes no segment that a protected environment's stored targeting names (Protection.ts),
   * judged before the write's lock; an unknown segment is still the 404 it was.
   */
  const guardWrite = (projectId: string, segmentKey: string) =>
    protection.shared(projectId, Effect.zipRight(load(projectId, segmentKey), Effect.map(flags.list(projectId), (all) => ({ _tag: "WriteSegment" as const, segmentKey, flags: all }))))

  return { load, guardWrite }
})
