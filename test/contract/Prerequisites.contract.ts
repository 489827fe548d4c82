import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { InvalidRequest } from "../../src/domain/Errors.js"
import type { Prerequisite, TargetingInput } from "../../src/domain/definitions/Targeting.js"
import { EnvironmentCopy } from "../../src/services/projects/EnvironmentCopy.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Snapshots } from "../../src/services/evaluation/Snapshots.js"
import { booleanFlag, type Contract, failureTag, givenProject } from "./Backend.js"

const requiring = (environment: string, prerequisites: ReadonlyArray<Prerequisite>): TargetingInput => ({
  environment,
  enabled: true,
  defaultVariationKey: "on",
  offVariationKey: "off",
  prerequisites,
  rules: []
})

/** A project with `production` and `staging` and boolean flags with the given keys. */
const givenFlags = (...keys: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const flags = yield* Flags
    const projectId = yield* givenProject("production", "staging")
    for (const key of keys) yield* flags.create(projectId, booleanFlag(key))
    return projectId
  })

/** The details of the 400 a targeting write fails with. */
const problemsOf = (effect: Effect.Effect<unknown, { readonly _tag: string }, Flags>) =>
  Effect.map(Effect.flip(effect), (error) => {
    expect(error._tag).toBe("InvalidRequest")
    return (error as InvalidRequest).details
  })

/** Prerequisites: stored, validated (unknown, cycle, depth), kept by copies, protecting the flags they name. */
export const prerequisitesContract: Contract = (it) => {
  it.effect("a targeting write stores prerequisites, returns them, and /v1/config carries them; absent means none", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const snapshots = yield* Snapshots
      const projectId = yield* givenFlags("base", "child")
      const updated = yield* flags.replaceTargeting(projectId, "child", requiring("production", [{ flagKey: "base", variationKey: "on" }]))
      const config = updated.configs.find((c) => c.environmentKey === "production")!
      expect(config.prerequisites).toEqual([{ flagKey: "base", variationKey: "on" }])
      expect(yield* flags.get(projectId, "child")).toEqual(updated)
      const { snapshot } = yield* snapshots.snapshot(projectId, "production")
      expect(snapshot.flags.find((f) => f.key === "child")!.prerequisites).toEqual([{ flagKey: "base", variationKey: "on" }])
      expect(snapshot.flags.find((f) => f.key === "base")!.prerequisites).toEqual([])
      const { prerequisites: _, ...without } = requiring("production", [])
      const cleared = yield* flags.replaceTargeting(projectId, "child", without)
      expect(cleared.configs.find((c) => c.environmentKey === "production")!.prerequisites).toEqual([])
    }))

  it.effect("listRequiring: the flags with prerequisites in some environment, in list order, with every config", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const repository = yield* FlagRepository
      const projectId = yield* givenFlags("base", "child", "plain", "grandchild")
      expect(yield* repository.listRequiring(projectId)).toEqual([])
      yield* flags.replaceTargeting(projectId, "grandchild", requiring("staging", [{ flagKey: "child", variationKey: "on" }]))
      yield* flags.replaceTargeting(projectId, "child", requiring("production", [{ flagKey: "base", variationKey: "on" }]))
      const all = yield* repository.list(projectId)
      expect(yield* repository.listRequiring(projectId)).toEqual(all.filter((f) => f.key === "child" || f.key === "grandchild"))
      // Cleared everywhere: no longer listed.
      const { prerequisites: _, ...without } = requiring("production", [])
      yield* flags.replaceTargeting(projectId, "child", without)
      expect((yield* repository.listRequiring(projectId)).map((f) => f.key)).toEqual(["grandchild"])
    }))

  it.effect("400 for an unknown flag, an unknown variation, the flag itself or a duplicate; nothing changes", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenFlags("base", "child")
      const before = yield* flags.get(projectId, "child")
      const details = yield* problemsOf(
        flags.replaceTargeting(
          projectId,
          "child",
          requiring("production", [
            { flagKey: "nope", variationKey: "on" },
            { flagKey: "base", variationKey: "maybe" },
            { flagKey: "child", variationKey: "on" },
            { flagKey: "base", variationKey: "on" }
          ])
        )
      )
      expect(details).toEqual([
        { path: "prerequisites[0].flagKey", message: 'unknown flag "nope"' },
        { path: "prerequisites[1].variationKey", message: 'unknown variation "maybe" of flag "base"' },
        { path: "prerequisites[2].flagKey", message: "a flag cannot require itself" },
        { path: "prerequisites[3].flagKey", message: 'duplicate prerequisite "base"' }
      ])
      expect(yield* flags.get(projectId, "child")).toEqual(before)
    }))

  it.effect("400 for a write that would close a cycle, in that environment only", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenFlags("a", "b", "c")
      yield* flags.replaceTargeting(projectId, "a", requiring("production", [{ flagKey: "b", variationKey: "on" }]))
      yield* flags.replaceTargeting(projectId, "b", requiring("production", [{ flagKey: "c", variationKey: "on" }]))
      const details = yield* problemsOf(flags.replaceTargeting(projectId, "c", requiring("production", [{ flagKey: "a", variationKey: "on" }])))
      expect(details).toEqual([{ path: "prerequisites", message: 'flag "c": prerequisites form a cycle: c -> a -> b -> c' }])
      // Another environment has no such chain: the same prerequisite is fine there.
      yield* flags.replaceTargeting(projectId, "c", requiring("staging", [{ flagKey: "a", variationKey: "on" }]))
    }))

  it.effect("400 for a chain deeper than 10 levels, also when the deeper flag is the one written", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const keys = Array.from({ length: 12 }, (_, i) => `f${i}`)
      const projectId = yield* givenFlags(...keys)
      // f0 -> f1 -> ... -> f10: ten levels below f0, the most allowed.
      for (let i = 9; i >= 0; i--) {
        yield* flags.replaceTargeting(projectId, keys[i]!, requiring("production", [{ flagKey: keys[i + 1]!, variationKey: "on" }]))
      }
      const details = yield* problemsOf(flags.replaceTargeting(projectId, "f10", requiring("production", [{ flagKey: "f11", variationKey: "on" }])))
      expect(details).toEqual([{ path: "prerequisites", message: expect.stringContaining("11 levels deep, more than 10") }])
    }))

  it.effect("deleting a flag another flag requires is 409, and works once nothing requires it", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenFlags("base", "child")
      yield* flags.replaceTargeting(projectId, "child", requiring("staging", [{ flagKey: "base", variationKey: "on" }]))
      const conflict = yield* Effect.flip(flags.remove(projectId, "base"))
      expect(conflict._tag).toBe("ResourceConflict")
      expect(conflict.message).toBe("Flag 'base' is required by flag(s) 'child' as a prerequisite; remove those prerequisites first")
      expect((yield* flags.get(projectId, "base")).key).toBe("base")
      // Removing a variation another flag requires is a 409 too.
      expect(yield* failureTag(flags.patch(projectId, "base", { variations: [{ key: "on", value: true }] }))).toBe("ResourceConflict")
      yield* flags.replaceTargeting(projectId, "child", requiring("staging", []))
      yield* flags.remove(projectId, "base")
      expect(yield* failureTag(flags.get(projectId, "base"))).toBe("ResourceNotFound")
    }))

  it.effect("an environment copy copies prerequisites, and refuses to make a cycle in the target", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const copies = yield* EnvironmentCopy
      const projectId = yield* givenFlags("a", "b")
      yield* flags.replaceTargeting(projectId, "a", requiring("staging", [{ flagKey: "b", variationKey: "on" }]))
      expect(yield* copies.copy(projectId, "production", { from: "staging", flags: ["a"] })).toEqual(["a"])
      const a = yield* flags.get(projectId, "a")
      expect(a.configs.find((c) => c.environmentKey === "production")!.prerequisites).toEqual([{ flagKey: "b", variationKey: "on" }])
      // b requires a in staging; copying b to production (where a requires b) would close a cycle.
      yield* flags.replaceTargeting(projectId, "a", requiring("staging", []))
      yield* flags.replaceTargeting(projectId, "b", requiring("staging", [{ flagKey: "a", variationKey: "on" }]))
      const before = yield* flags.get(projectId, "b")
      const refused = yield* Effect.flip(copies.copy(projectId, "production", { from: "staging", flags: ["b"] }))
      expect(refused._tag).toBe("InvalidRequest")
      expect((refused as InvalidRequest).details).toEqual([{ path: "flags", message: 'flag "b": prerequisites form a cycle: b -> a -> b' }])
      expect(yield* flags.get(projectId, "b")).toEqual(before)
    }))
}
