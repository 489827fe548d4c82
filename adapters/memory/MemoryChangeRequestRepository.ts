import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { StoredChangeRequest } from "../../src/domain/changes/ChangeRequest.js"
import { ChangeRequestRepository } from "../../src/ports/ChangeRequestRepository.js"
import { DuplicateKey } from "../../src/ports/StorageError.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"

/**
 * The reference ChangeRequestRepository: one MemoryDb cell joining the other memory ports'
 * transactions (a request is applied together with its flags' changes). A `modify` is atomic,
 * which makes `replace` a compare-and-set and `claimDue` a lease.
 */

interface Row {
  readonly request: StoredChangeRequest
  readonly leaseOwner: string | null
  readonly leaseUntil: string | null
}

export const make = Effect.gen(function* () {
  const db = yield* MemoryDb
  // Newest last; answers reverse it.
  const rows = db.makeRef<ReadonlyArray<Row>>("changeRequests", [])

  return ChangeRequestRepository.of({
    insert: (request) =>
      rows.modify((all) =>
        all.some((r) => r.request.id === request.id)
          ? [false, all] as const
          : [true, [...all, { request: jsonCopy(request), leaseOwner: null, leaseUntil: null }]] as const
      ).pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new DuplicateKey({ entity: "change request", key: request.id }))))),
    get: (projectId, id) =>
      Effect.map(rows.get, (all) =>
        Option.map(Option.fromNullable(all.find((r) => r.request.id === id && r.request.projectId === projectId)), (r) => jsonCopy(r.request))),
    list: (projectId, status) =>
      Effect.map(rows.get, (all) =>
        all
          .filter((r) => r.request.projectId === projectId && (status === undefined || r.request.status === status))
          .map((r) => jsonCopy(r.request))
          .reverse()),
    replace: (request, expectedVersion) =>
      rows.modify((all) => {
        const found = all.find((r) => r.request.id === request.id && r.request.projectId === request.projectId)
        if (found === undefined || found.request.version !== expectedVersion) return [false, all] as const
        return [true, all.map((r) => (r === found ? { ...r, request: jsonCopy(request) } : r))] as const
      }),
    claimDue: ({ leaseUntil, limit, now, owner }) =>
      rows.modify((all): readonly [ReadonlyArray<StoredChangeRequest>, ReadonlyArray<Row>] => {
        const due = all
          .filter((r) =>
            r.request.status === "approved" && r.request.applyAt !== null && r.request.applyAt <= now && r.request.failure === null &&
            (r.leaseUntil === null || r.leaseUntil <= now))
          .sort((a, b) => (a.request.applyAt! < b.request.applyAt! ? -1 : a.request.applyAt! > b.request.applyAt! ? 1 : 0))
          .slice(0, limit)
        if (due.length === 0) return [[], all] as const
        const claimed = new Set(due)
        return [
          due.map((r) => jsonCopy(r.request)),
          all.map((r) => (claimed.has(r) ? { ...r, leaseOwner: owner, leaseUntil } : r))
        ] as const
      })
  })
})

/** The memory ChangeRequestRepository; needs the MemoryDb of the memory storage. */
export const layer: Layer.Layer<ChangeRequestRepository, never, MemoryDb> = Layer.effect(ChangeRequestRepository, make)
