import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { makeFlagEvent } from "../../src/domain/webhooks/Webhook.js"
import { EnvironmentRepository } from "../../src/ports/EnvironmentRepository.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import { StorageError } from "../../src/ports/StorageError.js"
import { Transactor } from "../../src/ports/Transactor.js"
import * as EnvironmentsService from "../../src/services/projects/Environments.js"
import * as FlagsService from "../../src/services/flags/Flags.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import { booleanFlag, type Contract, freshProjectId, givenFlag, givenProject, flagData } from "./Backend.js"

const boom = new StorageError({ message: "injected failure" })

/** Transactions: rollback across ports, savepoints, use cases that fail halfway leave no trace. */
export const transactorContract: Contract = (it) => {
  it.effect("a failed transaction rolls back writes of every port, outbox included", () =>
    Effect.gen(function* () {
      const tx = yield* Transactor
      const projects = yield* ProjectRepository
      const flags = yield* Flags
      const outbox = yield* EventOutbox
      const existing = yield* givenProject("development")
      const fresh = freshProjectId()
      const error = yield* Effect.flip(
        tx.withTransaction(
          Effect.gen(function* () {
            yield* (yield* Projects).create({ id: fresh, name: "doomed" })
            yield* flags.create(existing, booleanFlag("doomed"))
            return yield* Effect.fail("abort" as const)
          })
        )
      )
      expect(error).toBe("abort")
      expect(yield* projects.get(fresh)).toEqual(Option.none())
      expect(yield* flags.list(existing)).toEqual([])
      expect(yield* outbox.list(existing)).toEqual([])
      expect(yield* projects.revision(existing)).toEqual(Option.some(2))
    }))

  it.effect("a defect rolls back too", () =>
    Effect.gen(function* () {
      const tx = yield* Transactor
      const flags = yield* Flags
      const projectId = yield* givenProject("development")
      const exit = yield* Effect.exit(
        tx.withTransaction(Effect.zipRight(flags.create(projectId, booleanFlag("x")), Effect.die("crash")))
      )
      expect(exit._tag).toBe("Failure")
      expect(yield* flags.list(projectId)).toEqual([])
    }))

  it.effect("nested transactions are savepoints: a recovered inner failure undoes only the inner writes", () =>
    Effect.gen(function* () {
      const tx = yield* Transactor
      const flags = yield* Flags
      const projectId = yield* givenProject("development")
      yield* tx.withTransaction(
        Effect.gen(function* () {
          yield* flags.create(projectId, booleanFlag("outer"))
          yield* tx.withTransaction(Effect.zipRight(flags.create(projectId, booleanFlag("inner")), Effect.fail("inner"))).pipe(
            Effect.catchAll(() => Effect.void)
          )
          yield* flags.create(projectId, booleanFlag("after"))
        })
      )
      expect((yield* flags.list(projectId)).map((f) => f.key)).toEqual(["outer", "after"])
      expect((yield* (yield* EventOutbox).list(projectId)).map((e) => flagData(e.event).flag.key)).toEqual(["outer", "after"])
    }))

  it.effect("creating a flag whose outbox append fails leaves no flag and no revision bump", () =>
    Effect.gen(function* () {
      const outbox = yield* EventOutbox
      const projects = yield* ProjectRepository
      const projectId = yield* givenProject("development")
      const revision = yield* projects.revision(projectId)
      const broken = yield* FlagsService.make.pipe(
        Effect.provideService(EventOutbox, { ...outbox, append: () => Effect.fail(boom) })
      )
      const error = yield* Effect.flip(broken.create(projectId, booleanFlag("ghost")))
      expect(error).toEqual(boom)
      expect(yield* (yield* FlagRepository).get(projectId, "ghost")).toEqual(Option.none())
      expect(yield* projects.revision(projectId)).toEqual(revision)
      expect(yield* outbox.list(projectId)).toEqual([])
    }))

  it.effect("a failure after the outbox append also removes the appended event", () =>
    Effect.gen(function* () {
      const outbox = yield* EventOutbox
      const flags = yield* Flags
      const { projectId } = yield* givenFlag("development")
      const eventsBefore = yield* outbox.list(projectId)
      const broken = yield* FlagsService.make.pipe(
        Effect.provideService(EventOutbox, {
          ...outbox,
          append: (event) => Effect.zipRight(outbox.append(event), Effect.fail(boom))
        })
      )
      expect(yield* Effect.flip(broken.patch(projectId, "flag", { name: "never" }))).toEqual(boom)
      expect(yield* outbox.list(projectId)).toEqual(eventsBefore)
      expect((yield* flags.get(projectId, "flag")).name).toBe("Flag flag")
      // The event id was real and could be appended: it is the rollback that removed it.
      yield* outbox.append(makeFlagEvent({
        id: `probe-${projectId}`,
        type: "flag.updated",
        projectId,
        occurredAt: "2026-11-22T00:00:00.000Z",
        flag: yield* flags.get(projectId, "flag")
      }))
      expect((yield* outbox.list(projectId)).length).toBe(eventsBefore.length + 1)
    }))

  it.effect("an environment create that fails after writing the configs leaves no environment and no config", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const repo = yield* FlagRepository
      const environments = yield* EnvironmentRepository
      const projects = yield* ProjectRepository
      const projectId = yield* givenProject("development")
      yield* flags.create(projectId, booleanFlag("first"))
      yield* flags.create(projectId, booleanFlag("second"))
      const before = yield* flags.list(projectId)
      const revision = yield* projects.revision(projectId)
      let wrote = false
      const broken = yield* EnvironmentsService.make.pipe(
        Effect.provideService(FlagRepository, {
          ...repo,
          addEnvironmentConfigs: (...args) =>
            repo.addEnvironmentConfigs(...args).pipe(
              Effect.tap(() => (wrote = true)),
              Effect.zipRight(Effect.fail(boom))
            )
        })
      )
      expect(yield* Effect.flip(broken.create(projectId, { key: "production", name: "Production" }))).toEqual(boom)
      expect(wrote).toBe(true)
      expect(yield* environments.get(projectId, "production")).toEqual(Option.none())
      expect(yield* flags.list(projectId)).toEqual(before)
      expect(yield* projects.revision(projectId)).toEqual(revision)
    }))
}
