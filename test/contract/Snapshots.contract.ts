import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Segments } from "../../src/services/segments/Segments.js"
import { Snapshots } from "../../src/services/evaluation/Snapshots.js"
import { booleanFlag, type Contract, freshProjectId, givenProject } from "./Backend.js"

/** Config snapshots: the `GET /v1/config` shape and a revision that moves with every change. */
export const snapshotContract: Contract = (it) => {
  it.effect("snapshot holds every flag merged with the environment's config, and the segments", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const segments = yield* Segments
      const snapshots = yield* Snapshots
      const projectId = yield* givenProject("development", "production")
      yield* segments.create(projectId, { key: "beta", name: "Beta", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }] })
      yield* flags.create(projectId, booleanFlag("a"))
      yield* flags.create(projectId, { key: "b", type: "json", variations: [{ key: "cfg", value: { depth: [1, { x: null }] } }] })
      const targeted = yield* flags.replaceTargeting(projectId, "a", {
        environment: "production",
        enabled: true,
        defaultVariationKey: "on",
        offVariationKey: "off",
        rules: [{ id: "r", conditions: [{ operator: "inSegment", values: ["beta"] }], variationKey: "off" }]
      })
      const { revision, snapshot } = yield* snapshots.snapshot(projectId, "production")
      expect(revision).toBe(yield* snapshots.revision(projectId))
      expect(snapshot).toEqual({
        environment: "production",
        flags: [
          {
            key: "a",
            type: "boolean",
            enabled: true,
            variations: targeted.variations,
            defaultVariationKey: "on",
            offVariationKey: "off",
            prerequisites: [],
            rules: [{ id: "r", conditions: [{ operator: "inSegment", values: ["beta"] }], variationKey: "off" }],
            version: targeted.version
          },
          {
            key: "b",
            type: "json",
            enabled: false,
            variations: [{ key: "cfg", value: { depth: [1, { x: null }] } }],
            defaultVariationKey: "cfg",
            offVariationKey: "cfg",
            prerequisites: [],
            rules: [],
            version: 1
          }
        ],
        segments: [{ key: "beta", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }] }]
      })
      expect((yield* snapshots.snapshot(projectId, "development")).snapshot.flags[0]!.enabled).toBe(false)
    }))

  it.effect("unknown project or environment is a 404", () =>
    Effect.gen(function* () {
      const snapshots = yield* Snapshots
      const projectId = yield* givenProject("development")
      expect((yield* Effect.flip(snapshots.snapshot(projectId, "nowhere")))._tag).toBe("ResourceNotFound")
      expect((yield* Effect.flip(snapshots.snapshot(freshProjectId(), "development")))._tag).toBe("ResourceNotFound")
      expect((yield* Effect.flip(snapshots.revision(freshProjectId())))._tag).toBe("ResourceNotFound")
    }))

  it.effect("the revision grows on every write that can change a snapshot, and only then", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const segments = yield* Segments
      const environments = yield* Environments
      const snapshots = yield* Snapshots
      const projectId = yield* givenProject("development")
      const seen = [yield* snapshots.revision(projectId)]
      const step = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.zipRight(effect, Effect.flatMap(snapshots.revision(projectId), (r) => Effect.sync(() => seen.push(r))))
      yield* step(flags.create(projectId, booleanFlag("f")))
      yield* step(flags.patch(projectId, "f", { name: "n" }))
      yield* step(
        flags.replaceTargeting(projectId, "f", { environment: "development", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
      )
      yield* step(segments.create(projectId, { key: "s", name: "S", conditions: [] }))
      yield* step(segments.patch(projectId, "s", { name: "T" }))
      yield* step(segments.remove(projectId, "s"))
      yield* step(environments.create(projectId, { key: "production", name: "P" }))
      yield* step(flags.remove(projectId, "f"))
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!)
      const settled = yield* snapshots.revision(projectId)
      yield* flags.list(projectId)
      yield* snapshots.snapshot(projectId, "production")
      yield* Effect.flip(flags.create(projectId, { key: "bad", type: "number", variations: [] }))
      expect(yield* snapshots.revision(projectId)).toBe(settled)
    }))
}
