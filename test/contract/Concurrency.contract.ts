import { expect } from "@effect/vitest"
import { Effect, Either } from "effect"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import { Transactor } from "../../src/ports/Transactor.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { Flags } from "../../src/services/flags/Flags.js"
import type { TargetingInput } from "../../src/domain/definitions/Targeting.js"
import { type Contract, failureTag, givenFlag } from "./Backend.js"

const targeting = (enabled: boolean): TargetingInput => ({
  environment: "development",
  enabled,
  defaultVariationKey: "on",
  offVariationKey: "off",
  rules: []
})

const WRITERS = 24

/** Optimistic concurrency: `ifMatch` on every write to a flag, and the storage's compare-and-set. */
export const concurrencyContract: Contract = (it) => {
  it.effect("a write with the current version succeeds; a stale one fails naming the current version and changes nothing", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const outbox = yield* EventOutbox
      const { projectId } = yield* givenFlag("development")
      const renamed = yield* flags.patch(projectId, "flag", { name: "Renamed" }, { ifMatch: 1 })
      expect(renamed.version).toBe(2)
      const targeted = yield* flags.replaceTargeting(projectId, "flag", targeting(true), { ifMatch: 2 })
      expect(targeted.version).toBe(3)
      const eventsBefore = (yield* outbox.list(projectId)).length
      const staleWrites: ReadonlyArray<Effect.Effect<unknown, { readonly _tag: string }>> = [
        flags.patch(projectId, "flag", { name: "Lost" }, { ifMatch: 2 }),
        flags.replaceTargeting(projectId, "flag", targeting(false), { ifMatch: 1 }),
        flags.remove(projectId, "flag", { ifMatch: 2 })
      ]
      for (const stale of staleWrites) {
        const error = yield* Effect.flip(stale)
        expect(error).toMatchObject({ _tag: "PreconditionFailed", currentVersion: 3 })
      }
      expect(yield* flags.get(projectId, "flag")).toEqual(targeted)
      expect((yield* outbox.list(projectId)).length).toBe(eventsBefore)
      yield* flags.remove(projectId, "flag", { ifMatch: 3 })
      expect(yield* failureTag(flags.get(projectId, "flag"))).toBe("ResourceNotFound")
    }))

  it.effect("without ifMatch the last writer wins, as before", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const { projectId } = yield* givenFlag("development")
      yield* flags.patch(projectId, "flag", { name: "One" })
      const two = yield* flags.patch(projectId, "flag", { name: "Two" })
      expect(two).toMatchObject({ name: "Two", version: 3 })
      // An unknown flag is still a 404, whatever the version asked for.
      expect(yield* failureTag(flags.patch(projectId, "missing", { name: "x" }, { ifMatch: 1 }))).toBe("ResourceNotFound")
    }))

  it.effect(
    "many concurrent writers with the same ifMatch: exactly one succeeds, the others fail with the version it made",
    () =>
      Effect.gen(function* () {
        const flags = yield* Flags
        const outbox = yield* EventOutbox
        const { projectId } = yield* givenFlag("development")
        const attempts = Array.from({ length: WRITERS }, (_, i): Effect.Effect<unknown, { readonly _tag: string }> =>
          i % 2 === 0
            ? flags.patch(projectId, "flag", { name: `writer ${i}` }, { ifMatch: 1 })
            : flags.replaceTargeting(projectId, "flag", targeting(i % 4 === 1), { ifMatch: 1 })
        )
        const results = yield* Effect.forEach(attempts, Effect.either, { concurrency: "unbounded" })
        const winners = results.filter(Either.isRight)
        expect(winners.length).toBe(1)
        for (const loser of results.filter(Either.isLeft)) expect(loser.left).toMatchObject({ _tag: "PreconditionFailed", currentVersion: 2 })
        expect(yield* flags.get(projectId, "flag")).toEqual(winners[0]!.right)
        const changes = (yield* outbox.list(projectId)).filter((e) => e.event.type !== "flag.created")
        expect(changes.length).toBe(1)
      }),
    60_000
  )

  it.effect(
    "the storage's compare-and-set alone lets one of many concurrent transactions based on one version write",
    () =>
      Effect.gen(function* () {
        // No revision bump here: the version check in the write statement is the only guard.
        const repo = yield* FlagRepository
        const tx = yield* Transactor
        const { flag, projectId } = yield* givenFlag("development")
        const attempt = (i: number) =>
          Effect.either(
            tx.withTransaction(
              Effect.gen(function* () {
                const read = (yield* repo.get(projectId, "flag")).pipe((found) => (found._tag === "Some" ? found.value : flag))
                yield* repo.update(projectId, { ...read, name: `writer ${i}`, version: read.version + 1 }, flag.version)
              })
            )
          )
        const results = yield* Effect.forEach(Array.from({ length: WRITERS }, (_, i) => i), attempt, { concurrency: "unbounded" })
        expect(results.filter(Either.isRight).length).toBe(1)
        for (const loser of results.filter(Either.isLeft)) expect(loser.left).toMatchObject({ _tag: "VersionConflict", current: 2 })
        expect((yield* repo.get(projectId, "flag")).pipe((found) => (found._tag === "Some" ? found.value.version : 0))).toBe(2)
        // A remove based on the old version misses too; on the current one it deletes.
        expect(yield* Effect.flip(tx.withTransaction(repo.remove(projectId, "flag", 1)))).toMatchObject({ _tag: "VersionConflict", current: 2 })
        yield* tx.withTransaction(repo.remove(projectId, "flag", 2))
        expect(yield* Effect.flip(repo.remove(projectId, "flag", 2))).toMatchObject({ _tag: "NotFound" })
      }),
    60_000
  )
}
