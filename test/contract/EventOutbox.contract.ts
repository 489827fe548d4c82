import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { Flags } from "../../src/services/Flags.js"
import { Segments } from "../../src/services/Segments.js"
import { booleanFlag, type Contract, givenProject } from "./Backend.js"

/** The outbox: one event per mapped write, with the contract payload, in order. */
export const outboxContract: Contract = (it) => {
  it.effect("POST, PATCH, PUT targeting and DELETE of a flag each record their event with the flag", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const segments = yield* Segments
      const outbox = yield* EventOutbox
      const projectId = yield* givenProject("development")
      const created = yield* flags.create(projectId, booleanFlag("flag"))
      const patched = yield* flags.patch(projectId, "flag", { name: "Renamed" })
      const targeted = yield* flags.replaceTargeting(projectId, "flag", {
        environment: "development",
        enabled: true,
        defaultVariationKey: "on",
        offVariationKey: "off",
        rules: []
      })
      yield* segments.create(projectId, { key: "s", name: "S", conditions: [] })
      yield* flags.remove(projectId, "flag")
      const entries = yield* outbox.list(projectId)
      expect(entries.map((e) => e.event.type)).toEqual(["flag.created", "flag.updated", "targeting.updated", "flag.deleted"])
      const seqs = entries.map((e) => e.seq)
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs)
      expect(new Set(entries.map((e) => e.event.id)).size).toBe(4)
      const [c, p, t, d] = entries.map((e) => e.event)
      expect(c).toEqual({ id: c!.id, type: "flag.created", projectId, occurredAt: created.createdAt, data: { flag: created } })
      expect(p!.data).toEqual({ flag: patched })
      expect(t!.data).toEqual({ flag: targeted, environment: "development" })
      // flag.deleted carries the flag as it was just before deletion.
      expect(d!.data).toEqual({ flag: targeted })
      expect(d!.occurredAt).toMatch(/Z$/)
      expect(entries.every((e) => e.dispatchedAt === null)).toBe(true)
    }))

  it.effect("pending lists undispatched events oldest first; markDispatched takes them out", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const outbox = yield* EventOutbox
      const projectId = yield* givenProject("development")
      yield* flags.create(projectId, booleanFlag("a"))
      yield* flags.create(projectId, booleanFlag("b"))
      const mine = yield* outbox.list(projectId)
      const pending = (yield* outbox.pending(100_000)).filter((e) => e.event.projectId === projectId)
      expect(pending.map((e) => e.event.id)).toEqual(mine.map((e) => e.event.id))
      yield* outbox.markDispatched(mine[0]!.event.id, "2026-11-22T00:00:00.000Z")
      const after = (yield* outbox.pending(100_000)).filter((e) => e.event.projectId === projectId)
      expect(after.map((e) => e.event.id)).toEqual([mine[1]!.event.id])
      expect((yield* outbox.list(projectId))[0]!.dispatchedAt).toBe("2026-11-22T00:00:00.000Z")
      expect((yield* outbox.pending(1)).length).toBe(1)
    }))
}
