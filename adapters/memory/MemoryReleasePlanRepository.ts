import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ReleasePlan } from "../../src/domain/releaseplans/ReleasePlan.js"
import { type ClaimedPlan, ReleasePlanRepository } from "../../src/ports/ReleasePlanRepository.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"

/**
 * The reference ReleasePlanRepository: one MemoryDb cell that joins the same transactions as the
 * other memory ports, so a plan's step commits with its targeting write. A `modify` is atomic (one
 * transaction at a time), which makes `claimDue` a safe lease and `replace` a compare-and-set.
 */

interface Row {
  readonly projectId: string
  readonly plan: ReleasePlan
  readonly dueAt: string | null
  readonly leaseOwner: string | null
  readonly leaseExpiresAt: string | null
}

const byDue = (a: Row, b: Row) => (a.dueAt! < b.dueAt! ? -1 : a.dueAt! > b.dueAt! ? 1 : 0)

export const make = Effect.gen(function* () {
  const db = yield* MemoryDb
  const rows = db.makeRef<ReadonlyArray<Row>>("releasePlans", [])
  const find = (all: ReadonlyArray<Row>, projectId: string, flagKey: string, id: string) =>
    all.find((r) => r.projectId === projectId && r.plan.flagKey === flagKey && r.plan.id === id)

  return ReleasePlanRepository.of({
    insert: (projectId, plan, dueAt) => rows.update((all) => [...all, { projectId, plan: jsonCopy(plan), dueAt, leaseOwner: null, leaseExpiresAt: null }]),
    list: (projectId, flagKey) =>
      Effect.map(rows.get, (all) => all.filter((r) => r.projectId === projectId && r.plan.flagKey === flagKey).map((r) => jsonCopy(r.plan))),
    get: (projectId, flagKey, id) => Effect.map(rows.get, (all) => Option.map(Option.fromNullable(find(all, projectId, flagKey, id)), (r) => jsonCopy(r.plan))),
    listIn: (projectId, statuses, where) =>
      Effect.map(rows.get, (all) =>
        all
          .filter((r) =>
            r.projectId === projectId && statuses.includes(r.plan.status) &&
            (where?.environment === undefined || r.plan.environment === where.environment) &&
            (where?.flagKey === undefined || r.plan.flagKey === where.flagKey))
          .map((r) => jsonCopy(r.plan))),
    replace: (projectId, plan, { dueAt, expectedVersion, owner }) =>
      rows.modify((all) => {
        const found = find(all, projectId, plan.flagKey, plan.id)
        if (found === undefined || found.plan.version !== expectedVersion || (owner !== undefined && found.leaseOwner !== owner)) return [false, all] as const
        const replaced: Row = { projectId, plan: jsonCopy(plan), dueAt, leaseOwner: null, leaseExpiresAt: null }
        return [true, all.map((r) => (r === found ? replaced : r))] as const
      }),
    remove: (projectId, flagKey, id) =>
      rows.modify((all) => {
        const found = find(all, projectId, flagKey, id)
        return found === undefined ? ([false, all] as const) : ([true, all.filter((r) => r !== found)] as const)
      }),
    claimDue: ({ leaseUntil, limit, now, owner }) =>
      rows.modify((all): readonly [ReadonlyArray<ClaimedPlan>, ReadonlyArray<Row>] => {
        const due = all
          .filter((r) => r.dueAt !== null && r.dueAt <= now && (r.leaseExpiresAt === null || r.leaseExpiresAt <= now))
          .sort(byDue)
          .slice(0, limit)
        if (due.length === 0) return [[], all] as const
        const claimed = new Set(due)
        return [
          due.map((r) => ({ projectId: r.projectId, plan: jsonCopy(r.plan) })),
          all.map((r) => (claimed.has(r) ? { ...r, leaseOwner: owner, leaseExpiresAt: leaseUntil } : r))
        ] as const
      })
  })
})

/** The memory ReleasePlanRepository; needs the MemoryDb of the memory storage. */
export const layer: Layer.Layer<ReleasePlanRepository, never, MemoryDb> = Layer.effect(ReleasePlanRepository, make)
