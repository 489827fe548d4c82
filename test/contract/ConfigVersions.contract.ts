import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { type Change, ChangeFeed, type ConfigChanged } from "../../src/ports/ChangeFeed.js"
import { EnvironmentCopy } from "../../src/services/projects/EnvironmentCopy.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Snapshots } from "../../src/services/evaluation/Snapshots.js"
import { booleanFlag, type Contract, givenProject } from "./Backend.js"

/** The `version` each environment's snapshot serves for flag `key`. */
const servedVersion = (projectId: string, environment: string, key: string) =>
  Effect.map(Effect.flatMap(Snapshots, (s) => s.snapshot(projectId, environment)), ({ snapshot }) =>
    snapshot.flags.find((f) => f.key === key)?.version
  )

/** An environment's snapshot (without the revision, which moves with every write): what `GET /v1/config` serves. */
const servedSnapshot = (projectId: string, environment: string) =>
  Effect.map(Effect.flatMap(Snapshots, (s) => s.snapshot(projectId, environment)), ({ snapshot }) => snapshot)

/** The environments named by the changes announced about the project since `received` was empty. */
const announced = (received: ReadonlyArray<Change>, projectId: string) =>
  received
    .filter((change): change is ConfigChanged => change._tag === "ConfigChanged" && change.projectId === projectId)
    .map((change) => change.environments)

/** Long enough for a backend that echoes its own notifications (PostgreSQL) to have done so. */
const settle = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 150)))

/**
 * The version an environment serves is the flag's version as of the last change to what that
 * environment serves: its own configuration, or the flag's variations. Every process loading an
 * unchanged environment (fresh or cached) serves the same bytes.
 */
export const configVersionContract: Contract = (it) => {
  it.effect("a targeting change moves the version of its environment only; a copy moves its target's", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenProject("development", "production")
      yield* flags.create(projectId, booleanFlag("a"))
      expect(yield* servedVersion(projectId, "development", "a")).toBe(1)
      expect(yield* servedVersion(projectId, "production", "a")).toBe(1)
      const developmentBefore = yield* servedSnapshot(projectId, "development")
      const targeted = yield* flags.replaceTargeting(projectId, "a", {
        environment: "production",
        enabled: true,
        defaultVariationKey: "on",
        offVariationKey: "off",
        rules: []
      })
      expect(targeted.version).toBe(2)
      expect(yield* servedVersion(projectId, "production", "a")).toBe(2)
      expect(yield* servedSnapshot(projectId, "development")).toEqual(developmentBefore)

      yield* (yield* EnvironmentCopy).copy(projectId, "development", { from: "production" })
      const copied = yield* flags.get(projectId, "a")
      expect(copied.version).toBe(3)
      expect(yield* servedVersion(projectId, "development", "a")).toBe(3)
      expect(yield* servedVersion(projectId, "production", "a")).toBe(2)
    }))

  it.scoped("a name or description change leaves every snapshot as it was and announces no environment", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenProject("development", "production")
      yield* flags.create(projectId, booleanFlag("a"))
      yield* flags.replaceTargeting(projectId, "a", { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
      const development = yield* servedSnapshot(projectId, "development")
      const production = yield* servedSnapshot(projectId, "production")
      const received: Array<Change> = []
      yield* (yield* ChangeFeed).subscribe((change) => void received.push(change))

      const renamed = yield* flags.patch(projectId, "a", { name: "Renamed", description: "Now described" })
      expect(renamed.version).toBe(3)
      // The same variations sent again change nothing served either.
      yield* flags.patch(projectId, "a", { variations: renamed.variations })
      expect(yield* servedSnapshot(projectId, "development")).toEqual(development)
      expect(yield* servedSnapshot(projectId, "production")).toEqual(production)
      yield* settle
      expect(announced(received, projectId)).toEqual([[], []])
    }))

  it.scoped("a variations change moves every environment's version to the flag's, and announces all", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenProject("development", "production")
      const created = yield* flags.create(projectId, booleanFlag("a"))
      yield* flags.replaceTargeting(projectId, "a", { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
      const received: Array<Change> = []
      yield* (yield* ChangeFeed).subscribe((change) => void received.push(change))

      const patched = yield* flags.patch(projectId, "a", {
        variations: [...created.variations.map((v) => (v.key === "on" ? { ...v, name: "On" } : v))]
      })
      expect(patched.version).toBe(3)
      expect(yield* servedVersion(projectId, "development", "a")).toBe(3)
      expect(yield* servedVersion(projectId, "production", "a")).toBe(3)
      yield* settle
      expect(announced(received, projectId)).toEqual(["all"])
    }))

  it.effect("a new environment's configurations serve the flags' new versions; the others keep theirs", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenProject("development")
      yield* flags.create(projectId, booleanFlag("a"))
      const development = yield* servedSnapshot(projectId, "development")
      yield* (yield* Environments).create(projectId, { key: "qa", name: "QA" })
      const flag = yield* flags.get(projectId, "a")
      expect(flag.version).toBe(2)
      expect(yield* servedVersion(projectId, "qa", "a")).toBe(2)
      expect(yield* servedSnapshot(projectId, "development")).toEqual(development)
    }))

  it.effect("each configuration carries the version its environment serves, read back the same", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenProject("development", "staging")
      yield* flags.create(projectId, booleanFlag("a"))
      const targeted = yield* flags.replaceTargeting(projectId, "a", { environment: "staging", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
      const renamed = yield* flags.patch(projectId, "a", { name: "Renamed" })
      for (const flag of [targeted, renamed, yield* flags.get(projectId, "a"), (yield* flags.list(projectId))[0]!]) {
        expect(flag.configs.map((c) => [c.environmentKey, c.version])).toEqual([["development", 1], ["staging", 2]])
      }
      for (const env of ["development", "staging"]) {
        expect((yield* flags.targeting(projectId, "a", env)).version).toBe(yield* servedVersion(projectId, env, "a"))
      }
      const missing = yield* Effect.flip(flags.targeting(projectId, "a", "nowhere"))
      expect(missing._tag).toBe("ResourceNotFound")
    }))

  it.effect("If-Match on a configuration conflicts only with changes to it (or to the variations); on the flag, with any change", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const projectId = yield* givenProject("development", "staging")
      yield* flags.create(projectId, booleanFlag("a"))
      const turnOn = (environment: string) => ({ environment, enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
      const stagingAt = (yield* flags.targeting(projectId, "a", "staging")).version
      // Someone changes development, then the name: a staging save based on staging's version still goes through.
      yield* flags.replaceTargeting(projectId, "a", turnOn("development"))
      yield* flags.patch(projectId, "a", { description: "Described" })
      const saved = yield* flags.replaceTargeting(projectId, "a", turnOn("staging"), { ifMatchConfig: { environment: "staging", version: stagingAt } })
      expect(saved.version).toBe(4)
      expect(saved.configs.find((c) => c.environmentKey === "staging")!.version).toBe(4)
      // The same save again, on the version it had: staging changed since, so 412 naming staging's version.
      const stale = yield* Effect.flip(flags.replaceTargeting(projectId, "a", turnOn("staging"), { ifMatchConfig: { environment: "staging", version: stagingAt } }))
      expect(stale).toMatchObject({ _tag: "PreconditionFailed", currentVersion: 4, environment: "staging" })
      // New variations change what every environment serves: a save based on the old one is refused.
      const developmentAt = (yield* flags.targeting(projectId, "a", "development")).version
      const flag = yield* flags.get(projectId, "a")
      yield* flags.patch(projectId, "a", { variations: flag.variations.map((v) => ({ ...v, name: v.key.toUpperCase() })) })
      const afterVariations = yield* Effect.flip(flags.replaceTargeting(projectId, "a", turnOn("development"), { ifMatchConfig: { environment: "development", version: developmentAt } }))
      expect(afterVariations).toMatchObject({ _tag: "PreconditionFailed", currentVersion: 5, environment: "development" })
      // The flag's version stays flag-wide: any change to the flag makes it stale.
      const flagAt = (yield* flags.get(projectId, "a")).version
      yield* flags.replaceTargeting(projectId, "a", { ...turnOn("development"), enabled: false })
      const flagWide = yield* Effect.flip(flags.replaceTargeting(projectId, "a", turnOn("staging"), { ifMatch: flagAt }))
      expect(flagWide).toMatchObject({ _tag: "PreconditionFailed", currentVersion: 6 })
      expect((flagWide as { environment?: string }).environment).toBeUndefined()
      // Nothing of a refused write remains.
      expect((yield* flags.get(projectId, "a")).version).toBe(6)
    }))
}
