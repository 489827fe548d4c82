/**
 * A revoked key's pending schedules are cancelled with it (issue 26), and a disabled person's with
 * them: otherwise a departing person or a stolen key could plant changes that outlive them. Runs
 * inside the revocation's (or the disabling's) write, so both commit together or not at all; each
 * cancellation is its own audit entry in the schedule's project, by the revoker (`CurrentActor`).
 */
import * as Effect from "effect/Effect"
import type { Actor } from "../../domain/audit/Actor.js"
import { ScheduleRepository } from "../../ports/ScheduleRepository.js"
import { cancelledEntry } from "./ScheduleView.js"
import * as Writes from "../shared/Writes.js"

/**
 * Cancels the pending schedules (in `projectId`, or in every project) whose author `authored`
 * picks. Each cancellation is a write nested in the caller's transaction; one the scheduler
 * settled meanwhile is left as it is.
 */
const cancellerWhere = Effect.gen(function* () {
  const repo = yield* ScheduleRepository
  const writes = yield* Writes.writer
  return (projectId: string | null, authored: (actor: Actor) => boolean) =>
    Effect.gen(function* () {
      const pending = yield* repo.listPending(projectId)
      yield* Effect.forEach(pending.filter((s) => authored(s.actor)), (schedule) =>
        writes.record(schedule.projectId, ({ now }) =>
          Effect.map(repo.cancel(schedule.id, now), (cancelled): Writes.Recorded<void> => ({
            value: undefined,
            audit: cancelled ? [cancelledEntry(schedule, now)] : []
          }))
        ), { discard: true })
    })
})

/**
 * Cancels every pending schedule made by `keyId` (in `projectId`, or in every project for a
 * global key, whose revocation is in no project's log).
 */
export const canceller = Effect.map(cancellerWhere, (cancel) => (keyId: string, projectId: string | null) =>
  cancel(projectId, (actor) => actor.type === "key" && actor.keyId === keyId))

/** Cancels every pending schedule a person made, in every project (when they are disabled). */
export const personCanceller = Effect.map(cancellerWhere, (cancel) => (userId: string) =>
  cancel(null, (actor) => actor.type === "user" && actor.userId === userId))
