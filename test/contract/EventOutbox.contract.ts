import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { WebhookEvent } from "../../src/domain/webhooks/Webhook.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Segments } from "../../src/services/segments/Segments.js"
import { booleanFlag, type Contract, givenProject } from "./Backend.js"
import { stored } from "../fixtures/StoredFlag.js"

/** The outbox: one event per mapped write, with the contract payload, in order. */
export const outboxContract: Contract = (it) => {
  it.effect("POST, PATCH, PUT targeting and DELETE of a flag each record their event with the flag", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const segments = yield* Segments
      const outbox = yield* EventOutbox
      const projectId = yield* givenProject("development")
      const created = stored(yield* flags.create(projectId, booleanFlag("flag")))
      const patched = stored(yield* flags.patch(projectId, "flag", { name: "Renamed" }))
      const targeted = stored(
        yield* flags.replaceTargeting(projectId, "flag", {
          environment: "development",
          enabled: true,
          defaultVariationKey: "on",
          offVariationKey: "off",
          rules: []
        })
      )
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

  it.effect("retention: only dispatched events dispatched before the cut-off go, at most `limit`, oldest first", () =>
    Effect.gen(function* () {
      const outbox = yield* EventOutbox
      const projectId = yield* givenProject("development")
      // Times long before any other test's, so the shared database's other events are not touched.
      const t = (day: number) => new Date(Date.parse("2001-01-01T00:00:00.000Z") + day * 86_400_000).toISOString()
      const cutoff = t(100)
      const drain = Effect.iterate(1, { while: (n) => n > 0, body: () => outbox.pruneDispatched(cutoff, 1000) })
      yield* drain
      const append = (name: string, occurredAt: string, dispatchedAt: string | null) =>
        Effect.gen(function* () {
          const id = `ev-${name}-${Math.random().toString(36).slice(2, 10)}`
          // A flag with no configurations is enough here (SQL reads the event back through its schema).
          const flag = { ...booleanFlag(name), id: `f-${id}`, name, description: null, configs: [], createdAt: occurredAt, updatedAt: occurredAt, version: 1 }
          const event: WebhookEvent = { id, type: "flag.created", projectId, occurredAt, data: { flag } }
          yield* outbox.append(event)
          if (dispatchedAt !== null) yield* outbox.markDispatched(id, dispatchedAt)
          return id
        })
      yield* append("old1", t(1), t(1))
      yield* append("old2", t(2), t(2))
      const old3 = yield* append("old3", t(3), t(3))
      const undispatched = yield* append("undispatched", t(0), null) // never fanned out: kept, whatever its age
      const recent = yield* append("recent", t(99), t(100)) // dispatched exactly at the cut-off: kept
      const ids = () => Effect.map(outbox.list(projectId), (rows) => rows.map((e) => e.event.id))

      expect(yield* outbox.pruneDispatched(cutoff, 2)).toBe(2)
      expect(yield* ids()).toEqual([old3, undispatched, recent])
      expect(yield* outbox.pruneDispatched(cutoff, 2)).toBe(1)
      expect(yield* outbox.pruneDispatched(cutoff, 2)).toBe(0)
      expect(yield* ids()).toEqual([undispatched, recent])
      expect((yield* outbox.pending(100_000)).map((e) => e.event.id)).toContain(undispatched)
    }))
}
