import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { TargetingInput } from "../../src/domain/definitions/Targeting.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { EnvironmentCopy } from "../../src/services/projects/EnvironmentCopy.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { booleanFlag, type Contract, failureTag, givenProject, flagData } from "./Backend.js"

const staging = (rules: TargetingInput["rules"]): TargetingInput => ({
  environment: "staging",
  enabled: true,
  defaultVariationKey: "on",
  offVariationKey: "off",
  rules
})

/** A project with staging and production, flags `a` and `b` configured in staging, `c` untouched. */
const givenStagedProject = Effect.gen(function* () {
  const flags = yield* Flags
  const projectId = yield* givenProject("staging", "production")
  for (const key of ["a", "b", "c"]) yield* flags.create(projectId, booleanFlag(key))
  yield* flags.replaceTargeting(projectId, "a", staging([{ id: "beta", conditions: [{ attribute: "beta", operator: "in", values: [true] }], variationKey: "on" }]))
  yield* flags.replaceTargeting(projectId, "b", staging([]))
  return projectId
})

/** Copying configuration between environments: one transaction, one event per changed flag. */
export const environmentCopyContract: Contract = (it) => {
  it.effect("copies every flag's configuration; unchanged flags are left alone; one targeting.updated per changed flag", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const copies = yield* EnvironmentCopy
      const outbox = yield* EventOutbox
      const projectId = yield* givenStagedProject
      const before = (yield* outbox.list(projectId)).length
      const changed = yield* copies.copy(projectId, "production", { from: "staging" })
      expect(changed).toEqual(["a", "b"])
      for (const key of ["a", "b"]) {
        const flag = yield* flags.get(projectId, key)
        const [fromConfig, toConfig] = ["staging", "production"].map((env) => flag.configs.find((c) => c.environmentKey === env)!)
        // The copy is the target's own change: its version is the flag's new one, the source keeps its own.
        expect({ ...toConfig, environmentKey: "staging", version: fromConfig!.version }).toEqual(fromConfig)
        expect(flag.version).toBe(3)
        expect(toConfig!.version).toBe(3)
      }
      expect((yield* flags.get(projectId, "c")).version).toBe(1)
      const events = (yield* outbox.list(projectId)).slice(before)
      expect(events.map((e) => [e.event.type, flagData(e.event).flag.key, flagData(e.event).environment])).toEqual([
        ["targeting.updated", "a", "production"],
        ["targeting.updated", "b", "production"]
      ])
      // Copying again changes nothing.
      expect(yield* copies.copy(projectId, "production", { from: "staging" })).toEqual([])
    }))

  it.effect("copies only the named flags; an unknown flag, environment or project changes nothing", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const copies = yield* EnvironmentCopy
      const projectId = yield* givenStagedProject
      expect(yield* copies.copy(projectId, "production", { from: "staging", flags: ["b"] })).toEqual(["b"])
      expect((yield* flags.get(projectId, "a")).version).toBe(2)
      // "a" comes first and would change, but "ghost" fails the whole copy.
      expect(yield* failureTag(copies.copy(projectId, "production", { from: "staging", flags: ["a", "ghost"] }))).toBe("ResourceNotFound")
      expect((yield* flags.get(projectId, "a")).configs.find((c) => c.environmentKey === "production")!.enabled).toBe(false)
      expect(yield* failureTag(copies.copy(projectId, "nowhere", { from: "staging" }))).toBe("ResourceNotFound")
      expect(yield* failureTag(copies.copy(projectId, "production", { from: "nowhere" }))).toBe("ResourceNotFound")
      expect(yield* failureTag(copies.copy("no-such-project", "production", { from: "staging" }))).toBe("ResourceNotFound")
      expect(yield* failureTag(copies.copy(projectId, "staging", { from: "staging" }))).toBe("InvalidRequest")
    }))

  it.effect("ifMatch: exactly one flag named; a stale version is a 412 naming the current one", () =>
    Effect.gen(function* () {
      const copies = yield* EnvironmentCopy
      const projectId = yield* givenStagedProject
      expect(yield* failureTag(copies.copy(projectId, "production", { from: "staging" }, { ifMatch: 2 }))).toBe("InvalidRequest")
      const stale = yield* Effect.flip(copies.copy(projectId, "production", { from: "staging", flags: ["a"] }, { ifMatch: 1 }))
      expect(stale).toMatchObject({ _tag: "PreconditionFailed", currentVersion: 2 })
      expect(yield* copies.copy(projectId, "production", { from: "staging", flags: ["a"] }, { ifMatch: 2 })).toEqual(["a"])
    }))
}
