import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ScheduleRepository, type StoredSchedule } from "../../src/ports/ScheduleRepository.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"

/**
 * The reference ScheduleRepository: one MemoryDb cell that joins the same transactions as the
 * other memory ports, so a schedule settles together with the targeting change it applied. A
 * `modify` is atomic (one transaction at a time), which is what makes `claimDue` a safe lease.
 */

interface Row extends StoredSchedule {
  readonly leaseOwner: string | null
  readonly leaseExpiresAt: string | null
}

const toStored = ({ leaseExpiresAt: _e, leaseOwner: _o, ...schedule }: Row): StoredSchedule => jsonCopy(schedule)

export const make = Effect.gen(function* () {
  const db = yield* MemoryDb
  const rows = db.makeRef<ReadonlyArray<Row>>("schedules", [])

  return ScheduleRepository.of({
    insert: (schedule) => rows.update((all) => [...all, { ...jsonCopy(schedule), leaseOwner: null, leaseExpiresAt: null }]),
    list: (projectId, flagKey) =>
      Effect.map(rows.get, (all) => all.filter((r) => r.projectId === projectId && r.flagKey === flagKey).map(toStored)),
    listPending: (projectId, environment) =>
      Effect.map(rows.get, (all) =>
        all
          .filter((r) => r.status === "pending" && (projectId === null || r.projectId === projectId) && (environment === undefined || r.environment === environment))
          .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
          .map(toStored)
      ),
    get: (projectId, flagKey, id) =>
      Effect.map(rows.get, (all) =>
        Option.map(
          Option.fromNullable(all.find((r) => r.id === id && r.projectId === projectId && r.flagKey === flagKey)),
          toStored
        )
      ),
    cancel: (id, settledAt) =>
      rows.modify((all) => {
        const found = all.find((r) => r.id === id && r.status === "pending")
        if (found === undefined) return [false, all] as const
        return [
          true,
          all.map((r) => (r === found ? { ...r, status: "cancelled", settledAt, leaseOwner: null, leaseExpiresAt: null } : r))
        ] as const
      }),
    claimDue: ({ leaseUntil, limit, now, owner }) =>
      rows.modify((all): readonly [ReadonlyArray<StoredSchedule>, ReadonlyArray<Row>] => {
        const due = all
          .filter((r) => r.status === "pending" && r.at <= now && (r.leaseExpiresAt === null || r.leaseExpiresAt <= now))
          .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
          .slice(0, limit)
        if (due.length === 0) return [[], all] as const
        const claimed = new Set(due)
        return [
          due.map(toStored),
          all.map((r) => (claimed.has(r) ? { ...r, leaseOwner: owner, leaseExpiresAt: leaseUntil } : r))
        ] as const
      }),
    settle: ({ id, owner, reason, settledAt, status }) =>
      rows.modify((all) => {
        const held = all.find((r) => r.id === id && r.status === "pending" && r.leaseOwner === owner)
        if (held === undefined) return [false, all] as const
        return [
          true,
          all.map((r) => (r === held ? { ...r, status, reason, settledAt, leaseOwner: null, leaseExpiresAt: null } : r))
        ] as const
      })
  })
})

/** The memory ScheduleRepository; needs the MemoryDb of the memory storage. */
export const layer: Layer.Layer<ScheduleRepository, never, MemoryDb> = Layer.effect(ScheduleRepository, make)
