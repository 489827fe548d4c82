import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { CurrentActor } from "../../domain/audit/Actor.js"
import { recordSeen } from "../../domain/auth/EnvironmentView.js"
import { type ChangeRequestRequired, type Forbidden, InvalidRequest, ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import { environmentNotFound, scheduleNotFound } from "../../domain/NotFound.js"
import {
  type CreateScheduleInput,
  environmentProblems,
  normalizeTime,
  type Schedule,
  storedTargeting,
  targetingInputOf,
  underTargeting
} from "../../domain/schedules/Schedule.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import { ScheduleRepository, type StoredSchedule } from "../../ports/ScheduleRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { Flags } from "../flags/Flags.js"
import { authorize, reach } from "../shared/Authorize.js"
import * as Protection from "../shared/Protection.js"
import { requireProject } from "../shared/RequireProject.js"
import { cancelledEntry, toSchedule } from "./ScheduleView.js"
import * as Writes from "../shared/Writes.js"

/**
 * Reading schedules needs `read` in the project, making and cancelling them `write`
 * (domain/auth/Permissions.ts); a key bound to an environment makes, cancels and reads only that
 * environment's schedules (a list leaves the others out; naming another is 403).
 */
export interface SchedulesShape {
  /**
   * Schedules `input.targeting` to replace the flag's configuration in `input.environment` at
   * `input.at`, by the actor of the call (`CurrentActor`). The targeting is checked now exactly as
   * the targeting PUT would check it (400 with every problem, paths under `targeting`; 404 for an
   * unknown project, flag or environment), and again when it runs (Scheduler.ts). A person's
   * schedule in a protected environment is refused (409 `change_request_required`, Protection.ts).
   */
  readonly create: (
    projectId: string,
    flagKey: string,
    input: CreateScheduleInput
  ) => Effect.Effect<Schedule, InvalidRequest | ResourceNotFound | ChangeRequestRequired | Forbidden | StorageError>
  /**
   * The flag's schedules in creation order, whatever their status, as the caller sees them (a
   * bound key: its environment's); 404 for an unknown project or flag.
   */
  readonly list: (projectId: string, flagKey: string) => Effect.Effect<ReadonlyArray<Schedule>, ResourceNotFound | Forbidden | StorageError>
  /**
   * Cancels a pending schedule; 404 when the flag has no such schedule, 409 when it is no longer
   * pending, 403 for a key bound to another environment than the schedule's. A person cancels no
   * schedule of a protected environment (409 `change_request_required`): that too changes what it
   * will serve.
   */
  readonly cancel: (
    projectId: string,
    flagKey: string,
    scheduleId: string
  ) => Effect.Effect<void, ResourceNotFound | ResourceConflict | ChangeRequestRequired | Forbidden | StorageError>
  /**
   * The project's pending schedules (of one environment when named; a key bound to one names its
   * own or none), earliest `at` first; 404 for an unknown project.
   */
  readonly listPending: (projectId: string, environment?: string) => Effect.Effect<ReadonlyArray<Schedule>, ResourceNotFound | Forbidden | StorageError>
}

export class Schedules extends Context.Tag("@flagport/services/Schedules")<Schedules, SchedulesShape>() {}

export { toSchedule } from "./ScheduleView.js"

export const make = Effect.gen(function* () {
  const repo = yield* ScheduleRepository
  const flags = yield* Flags
  const projects = yield* ProjectRepository
  const protection = yield* Protection.guards
  const ids = yield* IdGenerator
  const writes = yield* Writes.writer

  const create = Effect.fn("Schedules.create")(function* (projectId: string, flagKey: string, input: CreateScheduleInput) {
    yield* authorize("Schedules.create", projectId, [input.environment])
    const misplaced = environmentProblems(input)
    if (misplaced.length > 0) return yield* new InvalidRequest({ message: "Invalid schedule", details: [...misplaced] })
    // An unknown environment is validation's 404.
    yield* protection.direct(projectId, input.environment)
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
    const { seen } = yield* authorize("Schedules.list", projectId)
    yield* flags.get(projectId, flagKey)
    return (yield* repo.list(projectId, flagKey)).filter((schedule) => recordSeen(seen, schedule)).map(toSchedule)
  })

  const cancel = (projectId: string, flagKey: string, scheduleId: string) =>
    Effect.gen(function* () {
      yield* authorize("Schedules.cancel", projectId)
      yield* flags.get(projectId, flagKey)
      // Read before the transaction, so that a refused caller's request changes nothing and takes
      // no write lock; a schedule's environment never changes, so the answer still holds inside.
      const existing = yield* repo.get(projectId, flagKey, scheduleId)
      if (Option.isNone(existing)) return yield* scheduleNotFound(flagKey, scheduleId)
      yield* reach("Schedules.cancel", [existing.value.environment])
      yield* protection.direct(projectId, existing.value.environment)
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
          return { value: undefined, audit: [cancelledEntry(found.value, now)] } satisfies Writes.Recorded<void>
        })
      )
    }).pipe(Effect.withSpan("Schedules.cancel"))

  const listPending = Effect.fn("Schedules.listPending")(function* (projectId: string, environment?: string) {
    const { seen } = yield* authorize("Schedules.listPending", projectId, environment === undefined ? [] : [environment])
    yield* requireProject(projects, projectId)
    return (yield* repo.listPending(projectId, environment ?? seen ?? undefined)).map(toSchedule)
  })

  return Schedules.of({ create, list, cancel, listPending })
})

export const layer = Layer.effect(Schedules, make)
