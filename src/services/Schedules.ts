import { Context, Effect, Layer, Option } from "effect"
import { CurrentActor } from "../domain/audit/Actor.js"
import { InvalidRequest, ResourceConflict, type ResourceNotFound } from "../domain/Errors.js"
import { scheduleNotFound } from "../domain/NotFound.js"
import {
  type CreateScheduleInput,
  environmentProblems,
  normalizeTime,
  type Schedule,
  storedTargeting,
  targetingInputOf,
  underTargeting
} from "../domain/schedules/Schedule.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { ScheduleRepository, type StoredSchedule } from "../ports/ScheduleRepository.js"
import type { StorageError } from "../ports/StorageError.js"
import { Flags } from "./Flags.js"
import * as Writes from "./Writes.js"

export interface SchedulesShape {
  /**
   * Schedules `input.targeting` to replace the flag's configuration in `input.environment` at
   * `input.at`, by the actor of the call (`CurrentActor`). The targeting is checked now exactly as
   * the targeting PUT would check it (400 with every problem, paths under `targeting`; 404 for an
   * unknown project, flag or environment), and again when it runs (Scheduler.ts).
   */
  readonly create: (
    projectId: string,
    flagKey: string,
    input: CreateScheduleInput
  ) => Effect.Effect<Schedule, InvalidRequest | ResourceNotFound | StorageError>
  /** The flag's schedules in creation order, whatever their status; 404 for an unknown project or flag. */
  readonly list: (projectId: string, flagKey: string) => Effect.Effect<ReadonlyArray<Schedule>, ResourceNotFound | StorageError>
  /** Cancels a pending schedule; 404 when the flag has no such schedule, 409 when it is no longer pending. */
  readonly cancel: (
    projectId: string,
    flagKey: string,
    scheduleId: string
  ) => Effect.Effect<void, ResourceNotFound | ResourceConflict | StorageError>
}

export class Schedules extends Context.Tag("@flagport/services/Schedules")<Schedules, SchedulesShape>() {}

/** A stored schedule as the API shows it (`reason` only on a failed one). */
export const toSchedule = (s: StoredSchedule): Schedule => ({
  id: s.id,
  flagKey: s.flagKey,
  environment: s.environment,
  at: s.at,
  targeting: s.targeting,
  status: s.status,
  ...(s.reason === null ? {} : { reason: s.reason }),
  createdAt: s.createdAt,
  actor: s.actor
})

export const make = Effect.gen(function* () {
  const repo = yield* ScheduleRepository
  const flags = yield* Flags
  const ids = yield* IdGenerator
  const writes = yield* Writes.writer

  const create = Effect.fn("Schedules.create")(function* (projectId: string, flagKey: string, input: CreateScheduleInput) {
    const misplaced = environmentProblems(input)
    if (misplaced.length > 0) return yield* new InvalidRequest({ message: "Invalid schedule", details: [...misplaced] })
    const targeting = storedTargeting(input.targeting)
    const flag = yield* flags.validateTargeting(projectId, flagKey, targetingInputOf(input.environment, targeting)).pipe(
      Effect.catchTag("InvalidRequest", (e) => Effect.fail(new InvalidRequest({ message: e.message, details: [...underTargeting(e.details)] })))
    )
    const id = yield* ids.next
    const actor = yield* CurrentActor
    return yield* writes.record(projectId, ({ now }) => {
      const stored: StoredSchedule = {
        id,
        projectId,
        flagKey,
        flagId: flag.id,
        environment: input.environment,
        at: normalizeTime(input.at),
        targeting,
        status: "pending",
        reason: null,
        actor,
        createdAt: now,
        settledAt: null
      }
      const schedule = toSchedule(stored)
      return Effect.as(repo.insert(stored), {
        value: schedule,
        audit: [
          { action: "schedule.created", resource: { type: "schedule", key: id }, environment: stored.environment, before: null, after: schedule }
        ]
      } satisfies Writes.Recorded<Schedule>)
    })
  })

  const list = Effect.fn("Schedules.list")(function* (projectId: string, flagKey: string) {
    yield* flags.get(projectId, flagKey)
    return (yield* repo.list(projectId, flagKey)).map(toSchedule)
  })

  const cancel = Effect.fn("Schedules.cancel")(function* (projectId: string, flagKey: string, scheduleId: string) {
    yield* flags.get(projectId, flagKey)
    yield* writes.record(projectId, ({ now }) =>
      Effect.gen(function* () {
        const found = yield* repo.get(projectId, flagKey, scheduleId)
        if (Option.isNone(found)) return yield* scheduleNotFound(flagKey, scheduleId)
        // A schedule the scheduler settles meanwhile is no longer pending: `cancel` answers false.
        const cancelled = found.value.status === "pending" && (yield* repo.cancel(scheduleId, now))
        if (!cancelled) {
          const current = Option.getOrElse(yield* repo.get(projectId, flagKey, scheduleId), () => found.value)
          return yield* new ResourceConflict({ message: `Schedule '${scheduleId}' is ${current.status}; only a pending schedule can be cancelled` })
        }
        const after = Option.getOrElse(yield* repo.get(projectId, flagKey, scheduleId), () => found.value)
        return {
          value: undefined,
          audit: [
            {
              action: "schedule.cancelled",
              resource: { type: "schedule", key: scheduleId },
              environment: found.value.environment,
              before: toSchedule(found.value),
              after: toSchedule(after)
            }
          ]
        } satisfies Writes.Recorded<void>
      })
    )
  })

  return Schedules.of({ create, list, cancel })
})

export const layer = Layer.effect(Schedules, make)
