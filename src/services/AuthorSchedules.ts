/**
 * A revoked key's pending schedules are cancelled with it (issue 26): otherwise a departing person
 * or a stolen key could plant changes that outlive the key. Runs inside the revocation's write, so
 * both commit together or not at all; each cancellation is its own audit entry in the schedule's
 * project, by the revoker (`CurrentActor`).
 */
import * as Effect from "effect/Effect"
import { ScheduleRepository } from "../ports/ScheduleRepository.js"
import { cancelledEntry } from "./ScheduleView.js"
import * as Writes from "./Writes.js"

export const canceller = Effect.gen(function* () {
  const repo = yield* ScheduleRepository
  const writes = yield* Writes.writer

  /**
   * Cancels every pending schedule made by `keyId` (in `projectId`, or in every project for a
   * global key, whose revocation is in no project's log). Each cancellation is a write nested in
   * the caller's transaction; one the scheduler settled meanwhile is left as it is.
   */
  return (keyId: string, projectId: string | null) =>
    Effect.gen(function* () {
      const pending = yield* repo.listPending(projectId)
      const authored = pending.filter((s) => s.actor.type === "key" && s.actor.keyId === keyId)
      yield* Effect.forEach(authored, (schedule) =>
        writes.record(schedule.projectId, ({ now }) =>
          Effect.map(repo.cancel(schedule.id, now), (cancelled): Writes.Recorded<void> => ({
            value: undefined,
            audit: cancelled ? [cancelledEntry(schedule, now)] : []
          }))
        ), { discard: true })
    })
})
