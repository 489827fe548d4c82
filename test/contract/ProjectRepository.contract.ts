import { assert, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import { type Contract, freshProjectId, givenProject } from "./Backend.js"
import { actingAs } from "../../src/domain/auth/Caller.js"

/** Projects and environments: CRUD, not-found, duplicates, revision counter, environment-after-flags. */
export const projectContract: Contract = (it) => {
  it.effect("creates, gets and lists projects in creation order", () =>
    Effect.gen(function* () {
      const projects = yield* Projects
      const a = freshProjectId()
      const b = freshProjectId()
      const created = yield* projects.create({ id: a, name: "A" })
      yield* projects.create({ id: b, name: "B" })
      expect(created).toMatchObject({ id: a, name: "A" })
      expect(created.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      expect(yield* projects.get(a)).toEqual(created)
      const ids = (yield* projects.list()).map((p) => p.id)
      expect(ids.indexOf(a)).toBeGreaterThanOrEqual(0)
      expect(ids.indexOf(a)).toBeLessThan(ids.indexOf(b))
      // A key of project b sees only b.
      const ofB = actingAs({ _tag: "ProjectServer", keyId: "k-b", projectId: b, environment: null })
      expect(yield* ofB(projects.list())).toEqual([expect.objectContaining({ id: b })])
    }))

  it.effect("unknown project is not found, a duplicate id conflicts", () =>
    Effect.gen(function* () {
      const projects = yield* Projects
      const id = freshProjectId()
      const missing = yield* Effect.flip(projects.get(id))
      expect(missing._tag).toBe("ResourceNotFound")
      yield* projects.create({ id, name: "first" })
      const dup = yield* Effect.flip(projects.create({ id, name: "second" }))
      expect(dup._tag).toBe("ResourceConflict")
      expect((yield* projects.get(id)).name).toBe("first")
    }))

  it.effect("revision starts at 1 and bumps by one; unknown projects have none", () =>
    Effect.gen(function* () {
      const repo = yield* ProjectRepository
      const id = yield* givenProject()
      expect(yield* repo.revision(id)).toEqual(Option.some(1))
      expect(yield* repo.bumpRevision(id)).toBe(2)
      expect(yield* repo.revision(id)).toEqual(Option.some(2))
      expect(yield* repo.revision("nope-" + id)).toEqual(Option.none())
      const err = yield* Effect.flip(repo.bumpRevision("nope-" + id))
      expect(err._tag).toBe("NotFound")
    }))

  it.effect("creates and lists environments in creation order; duplicates conflict; unknown project 404", () =>
    Effect.gen(function* () {
      const environments = yield* Environments
      const projectId = yield* givenProject()
      const dev = yield* environments.create(projectId, { key: "development", name: "Development" })
      yield* environments.create(projectId, { key: "production", name: "Production" })
      expect(dev).toMatchObject({ projectId, key: "development", name: "Development" })
      expect((yield* environments.list(projectId)).map((e) => e.key)).toEqual(["development", "production"])
      expect((yield* environments.list(projectId))[0]).toEqual(dev)
      const dup = yield* Effect.flip(environments.create(projectId, { key: "production", name: "Again" }))
      expect(dup._tag).toBe("ResourceConflict")
      expect((yield* environments.list(projectId)).length).toBe(2)
      const unknown = freshProjectId()
      expect((yield* Effect.flip(environments.list(unknown)))._tag).toBe("ResourceNotFound")
      expect((yield* Effect.flip(environments.create(unknown, { key: "x", name: "x" })))._tag).toBe("ResourceNotFound")
    }))

  it.effect("an environment created after flags gives each flag a disabled config (first / last variation)", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const environments = yield* Environments
      const projectId = yield* givenProject("development")
      yield* flags.create(projectId, {
        key: "color",
        type: "string",
        variations: [
          { key: "red", value: "r" },
          { key: "green", value: "g" },
          { key: "blue", value: "b" }
        ]
      })
      yield* flags.create(projectId, { key: "limit", type: "number", variations: [{ key: "only", value: 5 }] })
      yield* environments.create(projectId, { key: "production", name: "Production" })
      const [color, limit] = yield* flags.list(projectId)
      assert(color !== undefined && limit !== undefined)
      expect(color.configs.map((c) => c.environmentKey)).toEqual(["development", "production"])
      expect(color.configs[1]).toEqual({
        environmentKey: "production",
        enabled: false,
        defaultVariationKey: "red",
        offVariationKey: "blue",
        prerequisites: [],
        rules: [],
        // The new configuration serves the flag's new version; development's is untouched.
        version: 2,
        lastEvaluatedAt: null
      })
      expect(color.configs[0]!.version).toBe(1)
      expect(limit.configs[1]).toMatchObject({ defaultVariationKey: "only", offVariationKey: "only", enabled: false })
      expect(color.version).toBe(2)
      expect(limit.version).toBe(2)
    }))
}
