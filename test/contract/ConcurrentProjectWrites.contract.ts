import { expect } from "@effect/vitest"
import { Effect, Either } from "effect"
import type { TargetingInput } from "../../src/domain/definitions/Targeting.js"
import { AuditLog } from "../../src/ports/AuditLog.js"
import { type Change, ChangeFeed, type ConfigChanged } from "../../src/ports/ChangeFeed.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { booleanFlag, type Contract, flagData, givenProject } from "./Backend.js"

const FLAGS = 16

const targeting = (environment: string, enabled: boolean): TargetingInput => ({
  environment,
  enabled,
  defaultVariationKey: "on",
  offVariationKey: "off",
  rules: []
})

/**
 * Writes to one project that arrive together are each a write of their own: each answered with
 * its own version, audited, webhooked and announced once, in commit order; one that fails leaves
 * nothing and fails no other.
 */
export const concurrentProjectWritesContract: Contract = (it) => {
  it.scoped(
    "concurrent targeting writes to one project: a failing one fails alone, every other is written with its audit entry, event and announcement, in commit order",
    () =>
      Effect.gen(function* () {
        const flags = yield* Flags
        const projectId = yield* givenProject("development")
        for (let i = 0; i < FLAGS; i++) yield* flags.create(projectId, booleanFlag(`f${i}`))
        const received: Array<Change> = []
        yield* (yield* ChangeFeed).subscribe((change) => void received.push(change))
        const audit = yield* AuditLog
        const before = (yield* audit.after(projectId, 0, 1000)).length
        const eventsBefore = (yield* (yield* EventOutbox).list(projectId)).length

        // Every fourth write names an unknown environment (404), one a stale version (412): they fail alone.
        const failing = (i: number) => i % 4 === 3
        const stale = 5
        const writes = Array.from({ length: FLAGS }, (_, i) =>
          flags.replaceTargeting(projectId, `f${i}`, targeting(failing(i) ? "nowhere" : "development", true), i === stale ? { ifMatch: 7 } : undefined))
        const results = yield* Effect.forEach(writes, Effect.either, { concurrency: "unbounded" })

        results.forEach((result, i) => {
          if (failing(i)) expect(result).toMatchObject({ _tag: "Left", left: { _tag: "ResourceNotFound" } })
          else if (i === stale) expect(result).toMatchObject({ _tag: "Left", left: { _tag: "PreconditionFailed", currentVersion: 1 } })
          else expect(result).toMatchObject({ _tag: "Right", right: { key: `f${i}`, version: 2 } })
        })
        const written = results.flatMap((result, i) => (Either.isRight(result) ? [`f${i}`] : []))
        expect(written.length).toBe(FLAGS - FLAGS / 4 - 1)

        // Stored: the written flags at version 2, the others untouched.
        for (let i = 0; i < FLAGS; i++) {
          const flag = yield* flags.get(projectId, `f${i}`)
          expect(flag.version).toBe(written.includes(`f${i}`) ? 2 : 1)
          expect(flag.configs.find((c) => c.environmentKey === "development")?.enabled).toBe(written.includes(`f${i}`))
        }
        // One audit entry and one webhook event per written flag, none for the others.
        const entries = (yield* audit.after(projectId, 0, 1000)).slice(before).map((p) => p.entry)
        expect(entries.filter((e) => e.action === "targeting.updated").map((e) => e.resource.key).sort()).toEqual([...written].sort())
        const events = (yield* (yield* EventOutbox).list(projectId)).slice(eventsBefore).map((e) => e.event)
        expect(events.map((e) => flagData(e).flag.key).sort()).toEqual([...written].sort())

        // Announced once each, after its commit, in commit order: revisions only grow.
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 150)))
        const announced = received.filter((c): c is ConfigChanged => c._tag === "ConfigChanged" && c.projectId === projectId && c.kind === "targeting")
        expect(announced.flatMap((c) => c.flagKeys).sort()).toEqual([...written].sort())
        const revisions = announced.map((c) => c.revision)
        expect(revisions).toEqual([...revisions].sort((a, b) => a - b))
        expect(new Set(revisions).size).toBe(revisions.length)
      }),
    60_000
  )

  it.effect("concurrent writes to one flag with the same version: exactly one is written, the others are told the version it made", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenProject("development", "production")
      yield* flags.create(projectId, booleanFlag("flag"))
      const results = yield* Effect.forEach(
        Array.from({ length: 12 }, (_, i) => flags.replaceTargeting(projectId, "flag", targeting(i % 2 === 0 ? "development" : "production", i % 3 === 0), { ifMatch: 1 })),
        Effect.either,
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight).length).toBe(1)
      for (const loser of results.filter(Either.isLeft)) expect(loser.left).toMatchObject({ _tag: "PreconditionFailed", currentVersion: 2 })
      expect((yield* flags.get(projectId, "flag")).version).toBe(2)
    }), 60_000)
}
