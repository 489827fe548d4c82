import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import type { ConfigError } from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import { CurrentCaller, operator } from "../../domain/auth/Caller.js"
import { CurrentActor } from "../../domain/audit/Actor.js"
import { formatTimestamp } from "../../domain/definitions/Ids.js"
import { failureReason, targetingInputOf } from "../../domain/schedules/Schedule.js"
import { ApiKeyRepository } from "../../ports/ApiKeyRepository.js"
import type { UserRepository } from "../../ports/UserRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ChangeRequestRepository } from "../../ports/ChangeRequestRepository.js"
import { ScheduleRepository, type StoredSchedule } from "../../ports/ScheduleRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import * as AuthorStanding from "../changes/AuthorStanding.js"
import { ChangeRequests } from "../changes/ChangeRequests.js"
import { Flags } from "../flags/Flags.js"
import * as ServiceMetrics from "../operations/ServiceMetrics.js"
import * as Writes from "../shared/Writes.js"
import type { ReleasePlanRepository } from "../../ports/ReleasePlanRepository.js"
import type { FlagRepository } from "../../ports/FlagRepository.js"
import * as PlanSettings from "../releaseplans/PlanSettings.js"
import { GuardrailCheckEvery } from "../releaseplans/PlanSettings.js"
import { type StepOutcome, stepDuePlans } from "../releaseplans/ReleaseStepper.js"

/**
 * Applies scheduled changes when they are due (contract: Scheduled changes), in the style of the
 * webhook dispatcher (WebhookDispatcher.ts).
 *
 * One round ("tick"):
 *  1. claim: due pending schedules are leased to this scheduler, earliest first (on PostgreSQL
 *     with FOR UPDATE SKIP LOCKED, so schedulers in other processes take other rows);
 *  2. apply each, in ONE transaction: `Flags.replaceTargeting` (the use case of the targeting
 *     PUT, so validation, webhook event, change-feed announcement and audit entry are the PUT's)
 *     run as the actor `{ type: "schedule", keyId, keyName }` of the key that made the schedule, then
 *     `settle` marks it `applied`. A change that is no longer valid (a variation removed, the
 *     environment or flag deleted) is undone (a savepoint) and the schedule becomes `failed` with
 *     the reason (so does a schedule whose flag was deleted and made again under the same key: the
 *     new flag is not the one it was made for). `settle` only succeeds while this scheduler still holds the lease and the schedule
 *     is still pending; otherwise the whole transaction is rolled back. So a schedule is applied
 *     exactly once, even when a lease lapses and two schedulers run it, or it is cancelled meanwhile.
 *
 * Everything durable lives in storage: a schedule due while no server ran is claimed by the first
 * round after start, and one held by a process that died is claimed again when its lease expires.
 * All timing uses Effect's Clock, so tests drive it with TestClock.
 */

export interface SchedulerOptions {
  /** Pause between rounds that found nothing to do; a schedule runs at most this long after its time. */
  readonly pollInterval: Duration.DurationInput
  /** Schedules claimed per round. */
  readonly batchSize: number
  /** How long a claim protects a schedule from other schedulers (far longer than applying takes). */
  readonly lease: Duration.DurationInput
}

export const defaultOptions: SchedulerOptions = {
  pollInterval: Duration.seconds(1),
  batchSize: 50,
  lease: Duration.seconds(60)
}

/**
 * What happened to one claimed schedule: applied; failed (recorded with its reason); lost (another
 * scheduler or a cancellation settled it first, nothing of this run remains); retry (it could not
 * be applied now, e.g. storage unavailable: logged, and claimed again when its lease expires).
 */
export type Outcome = "applied" | "failed" | "lost" | "retry"

type Deps =
  | ScheduleRepository
  | ApiKeyRepository
  | UserRepository
  | Flags
  | FlagRepository
  | ChangeRequestRepository
  | ChangeRequests
  | ReleasePlanRepository
  | Writes.WriterDeps

/** The lease was lost (another scheduler settled it, or it was cancelled): roll back. */
class LeaseLost extends Data.TaggedError("LeaseLost")<{}> {}

/** Leases up to `limit` due schedules to `owner`. */
export const claim = (owner: string, options: SchedulerOptions, limit: number) =>
  Effect.gen(function* () {
    const repo = yield* ScheduleRepository
    const nowMillis = yield* Clock.currentTimeMillis
    return yield* repo.claimDue({
      now: formatTimestamp(nowMillis),
      owner,
      leaseUntil: formatTimestamp(nowMillis + Duration.toMillis(Duration.decode(options.lease))),
      limit
    })
  })

/** Step 2 for one claimed schedule: apply it (or record why it cannot be) and settle it, atomically. */
export const apply = (owner: string, schedule: StoredSchedule): Effect.Effect<Outcome, StorageError, Deps> =>
  Effect.gen(function* () {
    const repo = yield* ScheduleRepository
    const flags = yield* Flags
    const keys = yield* ApiKeyRepository
    const writes = yield* Writes.writer
    const personRefusal = yield* AuthorStanding.refusal
    // The PUT's write, nested in this one (a savepoint): when it fails, nothing of it remains.
    // `flagId`: a flag deleted and made again under the key is not the one the schedule was made for.
    const change = flags
      .replaceTargeting(schedule.projectId, schedule.flagKey, targetingInputOf(schedule.environment, schedule.targeting), {
        flagId: schedule.flagId
      })
      .pipe(
        Effect.as<string | null>(null),
        Effect.catchTags({
          InvalidRequest: (e) => Effect.succeed(failureReason(e.message, e.details)),
          ResourceNotFound: (e) => Effect.succeed(failureReason(e.message)),
          // A person's schedule in an environment protected since it was made.
          ChangeRequestRequired: (e) => Effect.succeed(failureReason(e.message)),
          // No If-Match is sent: this is only the storage's compare-and-set safety net. The round
          // fails, the schedule stays pending, and it is tried again when its lease expires.
          PreconditionFailed: (e) => Effect.die(e),
          // The scheduler acts as the operator (below): no caller's decision can refuse it.
          Forbidden: (e) => Effect.die(e)
        }),
        // Whether the author may still act is AuthorStanding's and the revoked key's check (below),
        // made when the schedule falls due; the write itself is the machine's, recorded as the author's.
        Effect.provideService(CurrentCaller, operator),
        Effect.provideService(CurrentActor, {
          type: "schedule",
          ...(schedule.actor.keyId === undefined ? {} : { keyId: schedule.actor.keyId }),
          ...(schedule.actor.keyName === undefined ? {} : { keyName: schedule.actor.keyName }),
          // A person's schedule is still their hand (Protection.ts): named, so the rule sees it.
          ...(schedule.actor.userId === undefined ? {} : { userId: schedule.actor.userId }),
          ...(schedule.actor.email === undefined ? {} : { email: schedule.actor.email })
        })
      )
    // A schedule outlives no key: one whose author was revoked since is failed, never applied (a
    // departing person or a stolen key must not leave changes behind that apply later). Keys are
    // never deleted, so an id no key has is an actor of an Effect host, not a revoked key.
    const authorGone = schedule.actor.keyId === undefined
      ? Effect.succeed(false)
      : Effect.map(keys.get(schedule.actor.keyId), (key) => Option.isSome(key) && key.value.revokedAt !== null)
    // The scheduler's own write, settling the schedule; its audit entry is the change's.
    return yield* writes
      .record(schedule.projectId, ({ now }) =>
        Effect.gen(function* () {
          // A person's schedule likewise: only while they exist, are not disabled and may still
          // write in the project (AuthorStanding.ts); a disabling cancels them, this catches the rest.
          const reason = (yield* authorGone)
            ? `The API key that made this schedule (${schedule.actor.keyName ?? schedule.actor.keyId}) was revoked; a schedule is applied only while its author can act.`
            : ((yield* personRefusal(schedule.actor, schedule.projectId)) ?? (yield* change))
          const status: Outcome = reason === null ? "applied" : "failed"
          const settled = yield* repo.settle({ id: schedule.id, owner, status, reason, settledAt: now })
          if (!settled) return yield* new LeaseLost()
          return { value: status }
        })
      )
      .pipe(
        Effect.catchTag("LeaseLost", () => Effect.succeed<Outcome>("lost")),
        // How late it was settled against its due time: a scheduler that falls behind shows here.
        Effect.tap((outcome) =>
          outcome === "lost"
            ? Effect.void
            : Effect.flatMap(Clock.currentTimeMillis, (now) => Metric.update(ServiceMetrics.schedulerLag, Math.max(0, (now - Date.parse(schedule.at)) / 1000)))
        )
      )
  }).pipe(
    // A trace of its own: the rounds that find nothing to do are not worth one (adapters/telemetry).
    Effect.withSpan("Scheduler.apply", { root: true, attributes: { scheduleId: schedule.id } })
  )

/** `apply`, but a schedule that cannot be applied now must not hold up the others of the round. */
const applyOrRetry = (owner: string, schedule: StoredSchedule) =>
  apply(owner, schedule).pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.failCause(cause)
        : Effect.as(Effect.logWarning(`schedule ${schedule.id} could not be applied; it is retried after its lease`, cause), "retry" as const)
    )
  )

/**
 * Approved change requests whose `applyAt` has come, claimed and applied as schedules are
 * (ChangeRequests.applyDue): the lease spreads the work between schedulers, the request's
 * compare-and-set inside the apply's transaction makes it happen once. A request that cannot be
 * applied now for a reason of storage is logged and claimed again when its lease expires.
 */
export const applyDueChangeRequests = (owner: string, options: SchedulerOptions) =>
  Effect.gen(function* () {
    const repo = yield* ChangeRequestRepository
    const crs = yield* ChangeRequests
    const nowMillis = yield* Clock.currentTimeMillis
    const due = yield* repo.claimDue({
      now: formatTimestamp(nowMillis),
      owner,
      leaseUntil: formatTimestamp(nowMillis + Duration.toMillis(Duration.decode(options.lease))),
      limit: options.batchSize
    })
    return yield* Effect.forEach(due, (request) =>
      crs.applyDue(request).pipe(
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause)
            ? Effect.failCause(cause)
            : Effect.as(Effect.logWarning(`change request ${request.id} could not be applied; it is retried after its lease`, cause), "retry" as const)
        )
      ))
  })

/**
 * One round, start to finish: claim due schedules for `owner` and apply them one after the other
 * (in time order), then the change requests due, then the release plans' steps and checks due
 * (ReleaseStepper.ts). Returns the outcome of each. Tests step the scheduler with it.
 */
export const tick = (
  owner: string,
  options: SchedulerOptions = defaultOptions
): Effect.Effect<ReadonlyArray<Outcome | StepOutcome>, StorageError, Deps> =>
  Effect.gen(function* () {
    const claimed = yield* claim(owner, options, options.batchSize)
    const schedules = yield* Effect.forEach(claimed, (schedule) => applyOrRetry(owner, schedule))
    const requests = yield* applyDueChangeRequests(owner, options)
    const plans = yield* stepDuePlans(owner, options)
    return [...schedules, ...requests, ...plans]
  }).pipe(Effect.withSpan("Scheduler.tick"))

/**
 * The scheduler loop: rounds back to back while there is work, otherwise a pause of
 * `pollInterval`. A failed round (storage unavailable, ...) is logged and retried after the pause;
 * a schedule it held is claimed again when its lease expires. The loop never ends on its own.
 */
export const run = (owner: string, options: SchedulerOptions = defaultOptions): Effect.Effect<never, never, Deps> =>
  tick(owner, options).pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.failCause(cause)
        : Effect.as(Effect.logWarning("scheduler round failed", cause), [] as ReadonlyArray<Outcome | StepOutcome>)
    ),
    Effect.flatMap((outcomes) => (outcomes.length > 0 ? Effect.yieldNow() : Effect.sleep(options.pollInterval))),
    Effect.forever,
    Effect.orDie
  )

/** A handle on the running scheduler (mostly for diagnostics and tests). */
export interface SchedulerShape {
  /** This scheduler's lease owner id. */
  readonly owner: string
}

export class Scheduler extends Context.Tag("@flagport/services/Scheduler")<Scheduler, SchedulerShape>() {}

/**
 * Runs the scheduler as a fiber for the lifetime of the layer's scope (interrupted on shutdown; a
 * schedule it held is claimed again after its lease). Its first round runs at once, so schedules
 * that fell due while no server ran are applied at start. Include it next to the HTTP app in the
 * standalone server and in a mounted API.
 */
export const layerWith = (overrides: Partial<SchedulerOptions> = {}): Layer.Layer<Scheduler, never, Deps | IdGenerator> =>
  Layer.scoped(
    Scheduler,
    Effect.gen(function* () {
      const owner = `scheduler-${yield* (yield* IdGenerator).next}`
      // The plans' check interval in force where the scheduler is built (PlanSettings.ts).
      const checkEvery = yield* GuardrailCheckEvery
      yield* Effect.forkScoped(run(owner, { ...defaultOptions, ...overrides }).pipe(Effect.provideService(GuardrailCheckEvery, checkEvery)))
      return Scheduler.of({ owner })
    })
  )

/** The scheduler with default options (1 s poll, 60 s lease, batches of 50). */
export const layer: Layer.Layer<Scheduler, never, Deps | IdGenerator> = layerWith()

/**
 * FLAGPORT_SCHEDULER_LEASE_SECONDS: how long a scheduler's claim on a schedule, change request or
 * release plan step protects it from the schedulers of other processes, at least 1 (default 60).
 * It is also how long work claimed by a process that died waits before another takes it over.
 * Exactly-once does not rest on it (a late holder's write is rolled back by the compare-and-set).
 */
export const leaseSecondsConfig: Config.Config<number> = Config.number("FLAGPORT_SCHEDULER_LEASE_SECONDS").pipe(
  Config.validate({ message: "Expected a number of seconds, at least 1", validation: (seconds) => Number.isFinite(seconds) && seconds >= 1 }),
  Config.withDefault(Duration.toSeconds(defaultOptions.lease))
)

/** The scheduler with its lease from the environment (and the plans' check interval, PlanSettings.layerConfig). */
export const layerConfig: Layer.Layer<Scheduler, ConfigError, Deps | IdGenerator> = Layer.unwrapEffect(
  Effect.map(leaseSecondsConfig, (seconds) => layerWith({ lease: Duration.millis(Math.round(seconds * 1000)) }))
).pipe(Layer.provide(PlanSettings.layerConfig))
