import { expect } from "@effect/vitest"
import { Effect, Either } from "effect"
import { type Actor, CurrentActor } from "../../src/domain/audit/Actor.js"
import { ChangeRequests } from "../../src/services/changes/ChangeRequests.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Segments } from "../../src/services/segments/Segments.js"
import { givenApprover } from "./Approver.js"
import { type Contract, givenFlag } from "./Backend.js"

/**
 * A change request pins the segments its rules name (as they were when it was opened or its
 * changes updated): the request shows their conditions beside the diff, and its apply is refused
 * (409, nothing applied, still approved) once one changed, so an approved request cannot be widened
 * through a segment. On every backend.
 */

const AUTHOR: Actor = { type: "cli" }
const as = <A, E, R>(actor: Actor, effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, CurrentActor, actor)

const staff = [{ attribute: "email", operator: "endsWith" as const, values: ["@example.com"] }]
const everyone = [{ attribute: "email", operator: "contains" as const, values: ["@"] }]
const toSegment = (key: string) => ({
  enabled: true,
  defaultVariationKey: "off",
  offVariationKey: "off",
  rules: [{ conditions: [{ operator: "inSegment" as const, values: [key] }], variationKey: "on" }]
})

const givenRequestOnSegment = Effect.gen(function* () {
  const crs = yield* ChangeRequests
  const segments = yield* Segments
  const { projectId } = yield* givenFlag("production")
  const segment = yield* segments.create(projectId, { key: "staff", name: "Staff", conditions: staff })
  yield* segments.create(projectId, { key: "unnamed", name: "Not named", conditions: everyone })
  const opened = yield* as(AUTHOR, crs.open(projectId, { title: "Staff first", environment: "production", changes: [{ flagKey: "flag", targeting: toSegment("staff") }] }))
  return { crs, segments, projectId, segment, opened }
})

export const changeRequestSegmentContract: Contract = (it) => {
  it.effect("a request pins the segments its rules name: key, name, conditions and version (updatedAt), and only those", () =>
    Effect.gen(function* () {
      const { crs, projectId, segment, opened } = yield* givenRequestOnSegment
      const pinned = [{ key: "staff", name: "Staff", conditions: staff, updatedAt: segment.updatedAt }]
      expect(opened.segments).toEqual(pinned)
      expect((yield* crs.get(projectId, opened.id)).segments).toEqual(pinned)
      // Rewording the request keeps its pins, as it keeps its base versions.
      expect((yield* as(AUTHOR, crs.update(projectId, opened.id, { title: "Staff only" }))).segments).toEqual(pinned)
    }))

  it.effect("a segment widened after the approval: the apply is a 409 naming it, nothing is applied, it stays approved", () =>
    Effect.gen(function* () {
      const approver = yield* givenApprover
      const { crs, segments, projectId, opened } = yield* givenRequestOnSegment
      const flags = yield* Flags
      yield* as(approver, crs.approve(projectId, opened.id, {}))
      yield* segments.patch(projectId, "staff", { conditions: everyone })
      const before = yield* flags.get(projectId, "flag")
      const refused = yield* Effect.either(as(AUTHOR, crs.apply(projectId, opened.id)))
      expect(Either.isLeft(refused) && refused.left).toMatchObject({
        _tag: "ResourceConflict",
        message: "Segment 'staff' changed since this change request was made; nothing was applied, and its author can update it"
      })
      expect((yield* flags.get(projectId, "flag")).version).toBe(before.version)
      expect((yield* crs.get(projectId, opened.id)).status).toBe("approved")
      // Updated by its author, it pins the segment as it is now and needs approving again; then it applies.
      const updated = yield* as(AUTHOR, crs.update(projectId, opened.id, { changes: [{ flagKey: "flag", targeting: toSegment("staff") }] }))
      expect(updated.segments.map((s) => s.conditions)).toEqual([everyone])
      yield* as(approver, crs.approve(projectId, opened.id, {}))
      expect((yield* as(AUTHOR, crs.apply(projectId, opened.id))).status).toBe("applied")
    }))

  it.effect("any change to a pinned segment refuses the apply (a rename too); one the request does not name does not", () =>
    Effect.gen(function* () {
      const approver = yield* givenApprover
      const { crs, segments, projectId, opened } = yield* givenRequestOnSegment
      yield* as(approver, crs.approve(projectId, opened.id, {}))
      yield* segments.patch(projectId, "unnamed", { conditions: staff })
      yield* segments.patch(projectId, "staff", { name: "Staff and friends" })
      const refused = yield* Effect.either(as(AUTHOR, crs.apply(projectId, opened.id)))
      expect(Either.isLeft(refused) && refused.left.message).toMatch(/^Segment 'staff' changed since/)
    }))
}
