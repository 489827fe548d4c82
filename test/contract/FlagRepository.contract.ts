import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { booleanFlag, type Contract, failureTag, freshProjectId, givenFlag, givenProject } from "./Backend.js"

/** Flags: CRUD with configs, not-found, duplicates, validation, variation patch rules, versions. */
export const flagContract: Contract = (it) => {
  it.effect("create gives a disabled config per environment, version 1; get and list return it", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenProject("development", "staging")
      const created = yield* flags.create(projectId, {
        key: "new-checkout",
        name: "New checkout",
        description: "rolls out the new checkout",
        type: "boolean",
        variations: [
          { key: "on", value: true, name: "On" },
          { key: "off", value: false }
        ]
      })
      // The flag as the API shows it: never evaluated, and new, so not stale.
      expect(created).toMatchObject({ key: "new-checkout", name: "New checkout", type: "boolean", version: 1, stale: false })
      expect(created.configs).toEqual([
        { environmentKey: "development", enabled: false, defaultVariationKey: "on", offVariationKey: "off", prerequisites: [], rules: [], version: 1, lastEvaluatedAt: null },
        { environmentKey: "staging", enabled: false, defaultVariationKey: "on", offVariationKey: "off", prerequisites: [], rules: [], version: 1, lastEvaluatedAt: null }
      ])
      expect(created.createdAt).toBe(created.updatedAt)
      expect(yield* flags.get(projectId, "new-checkout")).toEqual(created)
      yield* flags.create(projectId, booleanFlag("second"))
      expect((yield* flags.list(projectId)).map((f) => f.key)).toEqual(["new-checkout", "second"])
      expect((yield* flags.list(projectId))[0]).toEqual(created)
    }))

  it.effect("not found: unknown flag, unknown project", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenProject("development")
      const unknown = freshProjectId()
      for (const effect of [
        failureTag(flags.get(projectId, "missing")),
        failureTag(flags.get(unknown, "missing")),
        failureTag(flags.list(unknown)),
        failureTag(flags.create(unknown, booleanFlag("x"))),
        failureTag(flags.patch(projectId, "missing", { name: "x" })),
        failureTag(flags.remove(projectId, "missing")),
      ]) {
        expect(yield* effect).toBe("ResourceNotFound")
      }
    }))

  it.effect("duplicate key conflicts; invalid input is a 400 with paths; neither leaves a trace", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const { flag, projectId } = yield* givenFlag("development")
      const dup = yield* Effect.flip(flags.create(projectId, { ...booleanFlag("flag"), name: "other" }))
      expect(dup._tag).toBe("ResourceConflict")
      const bad = yield* Effect.flip(
        flags.create(projectId, { key: "bad", type: "boolean", variations: [{ key: "on", value: "true" }] })
      )
      expect(bad._tag).toBe("InvalidRequest")
      if (bad._tag === "InvalidRequest") expect(bad.details.map((d) => d.path)).toContain("variations[0].value")
      expect(yield* flags.list(projectId)).toEqual([flag])
    }))

  it.effect("patch changes metadata and grows the version; targeting is untouched", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const { flag, projectId } = yield* givenFlag("development")
      const patched = yield* flags.patch(projectId, "flag", { name: "Renamed", description: "now described" })
      expect(patched).toMatchObject({ name: "Renamed", description: "now described", version: 2, configs: flag.configs })
      expect(patched.id).toBe(flag.id)
      expect(patched.createdAt).toBe(flag.createdAt)
      expect(yield* flags.get(projectId, "flag")).toEqual(patched)
      const cleared = yield* flags.patch(projectId, "flag", { description: null })
      expect(cleared).toMatchObject({ name: "Renamed", description: null, version: 3 })
    }))

  it.effect("patch variations: type checked, in-use keys may not be removed, unused ones may", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenProject("development")
      yield* flags.create(projectId, {
        key: "tier",
        type: "string",
        variations: [
          { key: "a", value: "A" },
          { key: "b", value: "B" },
          { key: "c", value: "C" }
        ]
      })
      // default = a, off = c: b is unused.
      const wrongType = yield* Effect.flip(flags.patch(projectId, "tier", { variations: [{ key: "a", value: 1 }] }))
      expect(wrongType._tag).toBe("InvalidRequest")
      const inUse = yield* Effect.flip(
        flags.patch(projectId, "tier", { variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] })
      )
      expect(inUse._tag).toBe("ResourceConflict")
      expect((yield* flags.get(projectId, "tier")).version).toBe(1)
      const ok = yield* flags.patch(projectId, "tier", {
        variations: [
          { key: "a", value: "A2" },
          { key: "c", value: "C" },
          { key: "d", value: "D" }
        ]
      })
      expect(ok.variations.map((v) => v.key)).toEqual(["a", "c", "d"])
      expect(ok.version).toBe(2)
    }))

  it.effect("the version grows by one on every change to the flag or its configs", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const environments = yield* Environments
      const { projectId } = yield* givenFlag("development")
      const versions = [(yield* flags.get(projectId, "flag")).version]
      versions.push((yield* flags.patch(projectId, "flag", { name: "n" })).version)
      versions.push(
        (yield* flags.replaceTargeting(projectId, "flag", {
          environment: "development",
          enabled: true,
          defaultVariationKey: "on",
          offVariationKey: "off",
          rules: []
        })).version
      )
      yield* environments.create(projectId, { key: "production", name: "Production" })
      versions.push((yield* flags.get(projectId, "flag")).version)
      versions.push((yield* flags.patch(projectId, "flag", { description: "d" })).version)
      expect(versions).toEqual([1, 2, 3, 4, 5])
    }))

  it.effect("delete removes the flag with its configs; the key can be reused from scratch", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const repo = yield* FlagRepository
      const { flag, projectId } = yield* givenFlag("development", "production")
      yield* flags.replaceTargeting(projectId, "flag", {
        environment: "production",
        enabled: true,
        defaultVariationKey: "on",
        offVariationKey: "off",
        rules: [{ id: "r1", conditions: [], variationKey: "on" }]
      })
      yield* flags.remove(projectId, "flag")
      expect(yield* repo.get(projectId, "flag")).toEqual(Option.none())
      expect(yield* flags.list(projectId)).toEqual([])
      expect(yield* repo.snapshotFlags(projectId, "production")).toEqual([])
      expect((yield* Effect.flip(flags.remove(projectId, "flag")))._tag).toBe("ResourceNotFound")
      const again = yield* flags.create(projectId, booleanFlag("flag"))
      expect(again.id).not.toBe(flag.id)
      expect(again.version).toBe(1)
      expect(again.configs.every((c) => !c.enabled && c.rules.length === 0)).toBe(true)
    }))

  it.effect("addEnvironmentConfigs refuses configs that do not cover every flag", () =>
    Effect.gen(function* () {
      const repo = yield* FlagRepository
      const { flag, projectId } = yield* givenFlag("development")
      yield* (yield* Flags).create(projectId, booleanFlag("second"))
      const error = yield* Effect.flip(
        repo.addEnvironmentConfigs(projectId, "development", [{ flagKey: "flag", config: flag.configs[0]! }], flag.updatedAt)
      )
      expect(error._tag).toBe("StorageError")
      expect((yield* repo.get(projectId, "flag")).pipe(Option.map((f) => f.version))).toEqual(Option.some(1))
    }))

  it.effect("flags of one project are invisible from another", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const { projectId } = yield* givenFlag("development")
      const other = yield* givenProject("development")
      expect(yield* flags.list(other)).toEqual([])
      expect((yield* Effect.flip(flags.get(other, "flag")))._tag).toBe("ResourceNotFound")
      yield* flags.create(other, booleanFlag("flag"))
      expect((yield* flags.list(projectId)).length).toBe(1)
    }))
}
