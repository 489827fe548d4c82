import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { CreateScheduleInput } from "../../src/domain/schedules/Schedule.js"
import { type Change, ChangeFeed } from "../../src/ports/ChangeFeed.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { ScheduleRepository, type StoredSchedule } from "../../src/ports/ScheduleRepository.js"
import { CurrentActor } from "../../src/domain/audit/Actor.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { Flags } from "../../src/services/flags/Flags.js"
import * as Scheduler from "../../src/services/schedules/Scheduler.js"
import { Schedules } from "../../src/services/schedules/Schedules.js"
import { booleanFlag, type Contract, failureTag, givenFlag, givenProject, flagData } from "./Backend.js"

/**
 * Scheduled changes: the repository's leases and settlement, and the scheduler over them applying
 * exactly once, through the targeting use case, on every backend.
 */

const PAST = "2020-01-01T00:00:00.000Z"
const FUTURE = "2999-01-01T00:00:00.000Z"

const turnOn = (environment: string, at: string): CreateScheduleInput => ({
  environment,
  at,
  targeting: { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
})

const stored = (projectId: string, overrides: Partial<StoredSchedule> = {}): StoredSchedule => ({
  id: `s-${Math.random().toString(36).slice(2, 12)}`,
  projectId,
  flagKey: "flag",
  flagId: "flag-id",
  environment: "production",
  at: PAST,
  targeting: { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] },
  status: "pending",
  reason: null,
  actor: { type: "key", keyId: "k1" },
  createdAt: "2026-11-23T00:00:00.000Z",
  settledAt: null,
  ...overrides
})

/** Claims as `owner` at `now` with a lease to `leaseUntil`, and keeps only this project's schedules. */
const claimMine = (projectId: string, owner: string, now: string, leaseUntil: string) =>
  Effect.map(
    Effect.flatMap(ScheduleRepository, (repo) => repo.claimDue({ now, owner, leaseUntil, limit: 1000 })),
    (claimed) => claimed.filter((s) => s.projectId === projectId)
  )

const configOf = (projectId: string, environment: string) =>
  Effect.map(Effect.flatMap(Flags, (flags) => flags.get(projectId, "flag")), (flag) => ({
    version: flag.version,
    config: flag.configs.find((c) => c.environmentKey === environment)!
  }))

export const scheduleContract: Contract = (it) => {
  it.effect("insert, list and get round-trip a schedule; list is per flag, in creation order", () =>
    Effect.gen(function* () {
      const repo = yield* ScheduleRepository
      const projectId = yield* givenProject("production")
      const a = stored(projectId, { targeting: { enabled: false, defaultVariationKey: "on", offVariationKey: "off", rules: [{ id: "r1", conditions: [{ attribute: "plan", operator: "in", values: ["pro", 1, true] }], variationKey: "on" }] } })
      const b = stored(projectId, { at: FUTURE, actor: { type: "key", keyId: "k2", keyName: "ci" } })
      const other = stored(projectId, { flagKey: "other" })
      for (const s of [a, b, other]) yield* repo.insert(s)
      expect(yield* repo.list(projectId, "flag")).toEqual([a, b])
      expect(yield* repo.get(projectId, "flag", a.id)).toEqual(Option.some(a))
      expect(Option.isNone(yield* repo.get(projectId, "flag", other.id))).toBe(true)
      expect(Option.isNone(yield* repo.get("another-project", "flag", a.id))).toBe(true)
    }))

  it.effect("claimDue leases due pending schedules, earliest first; a lease keeps other owners out until it expires", () =>
    Effect.gen(function* () {
      const repo = yield* ScheduleRepository
      const projectId = yield* givenProject("production")
      const later = stored(projectId, { at: "2020-01-02T00:00:00.000Z" })
      const earlier = stored(projectId, { at: "2020-01-01T00:00:00.000Z" })
      const notDue = stored(projectId, { at: FUTURE })
      const cancelled = stored(projectId)
      for (const s of [later, earlier, notDue, cancelled]) yield* repo.insert(s)
      expect(yield* repo.cancel(cancelled.id, "2026-01-01T00:00:00.000Z")).toBe(true)

      const now = "2026-01-01T00:00:00.000Z"
      const first = yield* claimMine(projectId, "a", now, "2026-01-01T00:01:00.000Z")
      expect(first.map((s) => s.id)).toEqual([earlier.id, later.id])
      expect(yield* claimMine(projectId, "b", "2026-01-01T00:00:59.999Z", "2026-01-01T00:02:00.000Z")).toEqual([])
      // Expired: another owner may take them over.
      const second = yield* claimMine(projectId, "b", "2026-01-01T00:01:00.000Z", "2026-01-01T00:02:00.000Z")
      expect(second.map((s) => s.id)).toEqual([earlier.id, later.id])
      // Only the current owner settles; a settled schedule is never claimed again.
      expect(yield* repo.settle({ id: earlier.id, owner: "a", status: "applied", reason: null, settledAt: now })).toBe(false)
      expect(yield* repo.settle({ id: earlier.id, owner: "b", status: "applied", reason: null, settledAt: now })).toBe(true)
      expect(yield* repo.settle({ id: earlier.id, owner: "b", status: "failed", reason: "x", settledAt: now })).toBe(false)
      expect(yield* repo.settle({ id: later.id, owner: "b", status: "failed", reason: "gone", settledAt: now })).toBe(true)
      expect(yield* claimMine(projectId, "c", "2026-02-01T00:00:00.000Z", "2026-02-01T00:01:00.000Z")).toEqual([])
      const after = yield* repo.list(projectId, "flag")
      expect(after.map((s) => [s.status, s.reason, s.settledAt])).toEqual([
        ["failed", "gone", now],
        ["applied", null, now],
        ["pending", null, null],
        ["cancelled", null, "2026-01-01T00:00:00.000Z"]
      ])
    }))

  it.effect("listPending: the project's pending schedules, earliest first, of one environment when named", () =>
    Effect.gen(function* () {
      const repo = yield* ScheduleRepository
      const projectId = yield* givenProject("production", "development")
      const otherProject = yield* givenProject("production")
      const late = stored(projectId, { at: FUTURE, flagKey: "other" })
      const early = stored(projectId, { at: "2998-01-01T00:00:00.000Z", environment: "development" })
      const cancelled = stored(projectId)
      const elsewhere = stored(otherProject)
      for (const s of [late, early, cancelled, elsewhere]) yield* repo.insert(s)
      expect(yield* repo.cancel(cancelled.id, "2026-01-01T00:00:00.000Z")).toBe(true)
      expect(yield* repo.listPending(projectId)).toEqual([early, late])
      expect(yield* repo.listPending(projectId, "production")).toEqual([late])
      const everywhere = (yield* repo.listPending(null)).map((s) => s.id)
      expect(everywhere).toEqual(expect.arrayContaining([early.id, late.id, elsewhere.id]))
      expect(everywhere).not.toContain(cancelled.id)
    }))

  it.effect("revoking a key (as the CLI does) cancels its pending schedules in the revocation's transaction, each with an audit entry by the revoker", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const schedules = yield* Schedules
      const { projectId } = yield* givenFlag("production")
      const author = yield* keys.create({ type: "server", projectId, name: "leaving" })
      const other = yield* keys.create({ type: "server", projectId, name: "staying" })
      const as = (keyId: string) => Effect.provideService(CurrentActor, { type: "key", keyId })
      const planted = yield* as(author.apiKey.id)(schedules.create(projectId, "flag", turnOn("production", FUTURE)))
      const kept = yield* as(other.apiKey.id)(schedules.create(projectId, "flag", turnOn("production", FUTURE)))
      yield* keys.revoke(author.apiKey.id)
      const statuses = Object.fromEntries((yield* schedules.list(projectId, "flag")).map((s) => [s.id, s.status]))
      expect(statuses).toEqual({ [planted.id]: "cancelled", [kept.id]: "pending" })
      const entries = (yield* Effect.flatMap(Audit, (audit) => audit.list(projectId, { resourceType: "schedule", resourceKey: planted.id }))).data
      expect(entries.map((e) => [e.action, e.actor.type])).toEqual([["schedule.cancelled", "cli"], ["schedule.created", "key"]])
    }))

  it.effect("cancel only cancels a pending schedule; a cancelled schedule cannot be settled by the owner that held it", () =>
    Effect.gen(function* () {
      const repo = yield* ScheduleRepository
      const projectId = yield* givenProject("production")
      const s = stored(projectId)
      yield* repo.insert(s)
      expect(yield* claimMine(projectId, "a", "2026-01-01T00:00:00.000Z", "2999-01-01T00:00:00.000Z")).toHaveLength(1)
      expect(yield* repo.cancel(s.id, "2026-01-01T00:00:01.000Z")).toBe(true)
      expect(yield* repo.cancel(s.id, "2026-01-01T00:00:02.000Z")).toBe(false)
      expect(yield* repo.settle({ id: s.id, owner: "a", status: "applied", reason: null, settledAt: "2026-01-01T00:00:03.000Z" })).toBe(false)
      expect(Option.getOrThrow(yield* repo.get(projectId, "flag", s.id)).status).toBe("cancelled")
    }))

  it.effect("Schedules.create validates the targeting as the PUT does, with paths under `targeting`, and stores nothing on failure", () =>
    Effect.gen(function* () {
      const schedules = yield* Schedules
      const { projectId } = yield* givenFlag("production")
      const bad = { ...turnOn("production", FUTURE), targeting: { ...turnOn("production", FUTURE).targeting, defaultVariationKey: "maybe" } }
      const error = yield* Effect.flip(schedules.create(projectId, "flag", bad))
      expect(error._tag).toBe("InvalidRequest")
      expect(error._tag === "InvalidRequest" && error.details).toEqual([{ path: "targeting.defaultVariationKey", message: 'unknown variation "maybe"' }])
      const elsewhere = { ...turnOn("production", FUTURE), targeting: { ...turnOn("production", FUTURE).targeting, environment: "development" } }
      expect(yield* failureTag(schedules.create(projectId, "flag", elsewhere))).toBe("InvalidRequest")
      expect(yield* failureTag(schedules.create(projectId, "flag", turnOn("staging", FUTURE)))).toBe("ResourceNotFound")
      expect(yield* failureTag(schedules.create(projectId, "nope", turnOn("production", FUTURE)))).toBe("ResourceNotFound")
      expect(yield* schedules.list(projectId, "flag")).toEqual([])
      // The same environment named inside the targeting is accepted, and stored once.
      const ok = yield* schedules.create(projectId, "flag", { ...turnOn("production", "2999-01-01T10:00:00+02:00"), targeting: { ...turnOn("production", FUTURE).targeting, environment: "production" } })
      expect(ok).toMatchObject({ flagKey: "flag", environment: "production", at: "2999-01-01T08:00:00.000Z", status: "pending", actor: { type: "cli" } })
      expect(ok.targeting).toEqual(turnOn("production", FUTURE).targeting)
      expect(yield* schedules.list(projectId, "flag")).toEqual([ok])
    }))

  it.effect("Schedules.cancel: 404 for an unknown schedule, 409 once it is no longer pending", () =>
    Effect.gen(function* () {
      const schedules = yield* Schedules
      const { projectId } = yield* givenFlag("production")
      const s = yield* schedules.create(projectId, "flag", turnOn("production", FUTURE))
      expect(yield* failureTag(schedules.cancel(projectId, "flag", "unknown"))).toBe("ResourceNotFound")
      yield* schedules.cancel(projectId, "flag", s.id)
      expect(yield* failureTag(schedules.cancel(projectId, "flag", s.id))).toBe("ResourceConflict")
      expect((yield* schedules.list(projectId, "flag")).map((x) => x.status)).toEqual(["cancelled"])
    }))

  it.effect("the scheduler applies a due schedule through the targeting use case: the same event and announcement as a PUT", () =>
    Effect.gen(function* () {
      const schedules = yield* Schedules
      const flags = yield* Flags
      const outbox = yield* EventOutbox
      const feed = yield* ChangeFeed
      const projectId = yield* givenProject("production")
      yield* flags.create(projectId, booleanFlag("flag"))
      yield* flags.create(projectId, booleanFlag("by-hand"))
      const heard: Array<Change> = []
      yield* feed.subscribe((change) => void heard.push(change))
      const input = turnOn("production", PAST)
      const s = yield* schedules.create(projectId, "flag", input)
      const byHand = yield* flags.replaceTargeting(projectId, "by-hand", { ...input.targeting, environment: "production" })

      const outcomes = yield* Scheduler.tick(`owner-${projectId}`)
      expect(outcomes).toContain("applied")
      const applied = yield* flags.get(projectId, "flag")
      expect(applied.configs.find((c) => c.environmentKey === "production")).toEqual(byHand.configs.find((c) => c.environmentKey === "production"))
      expect(applied.version).toBe(2)
      expect((yield* schedules.list(projectId, "flag")).map((x) => [x.id, x.status])).toEqual([[s.id, "applied"]])

      const events = (yield* outbox.list(projectId)).map((e) => e.event).filter((e) => e.type === "targeting.updated")
      const normalize = (e: (typeof events)[number]) => ({
        ...e,
        id: "id",
        occurredAt: "t",
        data: { ...flagData(e), flag: { ...flagData(e).flag, id: "id", key: "key", name: "name", createdAt: "t", updatedAt: "t" } }
      })
      expect(events.map((e) => flagData(e).flag.key)).toEqual(["by-hand", "flag"])
      expect(normalize(events[1]!)).toEqual(normalize(events[0]!))
      // Announcements are published after commit; give a cross-process feed a moment.
      yield* Effect.sleep("200 millis")
      const mine = heard.filter((c) => c._tag === "ConfigChanged" && c.projectId === projectId && c.kind === "targeting")
      expect(mine.map((c) => c._tag === "ConfigChanged" && [c.flagKeys, c.environments])).toEqual([
        [["by-hand"], ["production"]],
        [["flag"], ["production"]]
      ])
      // Applied once: later rounds find nothing of it.
      yield* Scheduler.tick(`owner-${projectId}`)
      expect((yield* flags.get(projectId, "flag")).version).toBe(2)
    }).pipe(Effect.scoped))

  it.effect("a schedule no longer valid when it runs fails with the reason and changes nothing", () =>
    Effect.gen(function* () {
      const schedules = yield* Schedules
      const flags = yield* Flags
      const outbox = yield* EventOutbox
      const projectId = yield* givenProject("production")
      yield* flags.create(projectId, {
        key: "flag",
        type: "string",
        variations: [
          { key: "a", value: "a" },
          { key: "b", value: "b" },
          { key: "c", value: "c" }
        ]
      })
      yield* schedules.create(projectId, "flag", {
        environment: "production",
        at: PAST,
        targeting: { enabled: true, defaultVariationKey: "b", offVariationKey: "c", rules: [] }
      })
      yield* flags.patch(projectId, "flag", { variations: [{ key: "a", value: "a" }, { key: "c", value: "c" }] })
      const before = yield* configOf(projectId, "production")
      const eventsBefore = (yield* outbox.list(projectId)).length

      expect(yield* Scheduler.tick(`owner-${projectId}`)).toContain("failed")
      expect(yield* configOf(projectId, "production")).toEqual(before)
      expect((yield* outbox.list(projectId)).length).toBe(eventsBefore)
      const [failed] = yield* schedules.list(projectId, "flag")
      expect(failed!.status).toBe("failed")
      expect(failed!.reason).toBe('Invalid targeting: defaultVariationKey: unknown variation "b"')
    }))

  it.effect("a schedule whose flag was deleted and made again under its key fails and leaves the new flag alone", () =>
    Effect.gen(function* () {
      const schedules = yield* Schedules
      const flags = yield* Flags
      const outbox = yield* EventOutbox
      const { projectId } = yield* givenFlag("production")
      yield* schedules.create(projectId, "flag", turnOn("production", PAST))
      yield* flags.remove(projectId, "flag")
      yield* flags.create(projectId, booleanFlag("flag"))
      const before = yield* configOf(projectId, "production")
      const eventsBefore = (yield* outbox.list(projectId)).length
      expect(yield* Scheduler.tick(`owner-${projectId}`)).toContain("failed")
      expect(yield* configOf(projectId, "production")).toEqual(before)
      expect((yield* outbox.list(projectId)).length).toBe(eventsBefore)
      const [failed] = yield* schedules.list(projectId, "flag")
      expect(failed).toMatchObject({ status: "failed", reason: "Flag 'flag' was deleted after the schedule was made (a flag with its key was made again)" })
    }))

  it.effect("a scheduler whose lease lapsed and was taken over changes nothing: the schedule applies once", () =>
    Effect.gen(function* () {
      const repo = yield* ScheduleRepository
      const schedules = yield* Schedules
      const projectId = yield* givenFlag("production").pipe(Effect.map((g) => g.projectId))
      yield* schedules.create(projectId, "flag", turnOn("production", PAST))
      const now = new Date().toISOString()
      const [held] = yield* claimMine(projectId, "slow", now, now) // expires at once
      const [taken] = yield* claimMine(projectId, "fast", now, "2999-01-01T00:00:00.000Z")
      expect(held!.id).toBe(taken!.id)
      expect(yield* Scheduler.apply("slow", held!)).toBe("lost")
      expect((yield* configOf(projectId, "production")).version).toBe(1)
      expect(yield* Scheduler.apply("fast", taken!)).toBe("applied")
      expect(yield* Scheduler.apply("fast", taken!)).toBe("lost")
      expect(yield* configOf(projectId, "production")).toMatchObject({ version: 2, config: { enabled: true, defaultVariationKey: "on" } })
      expect(Option.getOrThrow(yield* repo.get(projectId, "flag", held!.id)).status).toBe("applied")
    }))
}
