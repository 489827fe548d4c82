import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { TargetingInput } from "../../src/domain/definitions/Targeting.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Segments } from "../../src/services/segments/Segments.js"
import { type Contract, givenFlag, flagData } from "./Backend.js"

const enabledWith = (environment: string, rules: TargetingInput["rules"]): TargetingInput => ({
  environment,
  enabled: true,
  defaultVariationKey: "off",
  offVariationKey: "off",
  rules
})

/** PUT targeting: whole replace of one environment, rule ids, all-or-nothing, concurrency. */
export const targetingContract: Contract = (it) => {
  it.effect("replaces one environment's config whole; keeps sent rule ids and assigns missing ones", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const segments = yield* Segments
      const { flag, projectId } = yield* givenFlag("development", "production")
      yield* segments.create(projectId, {
        key: "beta",
        name: "Beta users",
        conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }]
      })
      const updated = yield* flags.replaceTargeting(
        projectId,
        "flag",
        enabledWith("production", [
          { id: "keep-me", name: "EU", conditions: [{ attribute: "country", operator: "in", values: ["DE", "FR"] }], variationKey: "on" },
          { conditions: [{ operator: "inSegment", values: ["beta"] }], variationKey: "on" },
          {
            conditions: [],
            rollout: { bucketBy: "key", variations: [{ variationKey: "on", weight: 25000 }, { variationKey: "off", weight: 75000 }] }
          }
        ])
      )
      const production = updated.configs.find((c) => c.environmentKey === "production")!
      expect(production.enabled).toBe(true)
      expect(production.rules.map((r) => r.id)[0]).toBe("keep-me")
      const ids = production.rules.map((r) => r.id)
      expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true)
      expect(new Set(ids).size).toBe(3)
      expect(production.rules[2]!.rollout!.variations[0]).toEqual({ variationKey: "on", weight: 25000 })
      expect(updated.configs.find((c) => c.environmentKey === "development")).toEqual(flag.configs[0])
      expect(updated.version).toBe(2)
      expect(yield* flags.get(projectId, "flag")).toEqual(updated)
      // Sending the stored rules back keeps their ids: ids are stable.
      const again = yield* flags.replaceTargeting(projectId, "flag", { ...enabledWith("production", production.rules) })
      expect(again.configs.find((c) => c.environmentKey === "production")!.rules.map((r) => r.id)).toEqual(ids)
      // Replacing with no rules removes them all.
      const cleared = yield* flags.replaceTargeting(projectId, "flag", { ...enabledWith("production", []), enabled: false })
      expect(cleared.configs.find((c) => c.environmentKey === "production")).toEqual({
        environmentKey: "production",
        enabled: false,
        defaultVariationKey: "off",
        offVariationKey: "off",
        prerequisites: [],
        rules: [],
        version: 4,
        lastEvaluatedAt: null
      })
      // Development's configuration kept its own version through the three production writes.
      expect(cleared.configs.find((c) => c.environmentKey === "development")!.version).toBe(1)
    }))

  it.effect("is all-or-nothing: an invalid rule changes nothing, records no event, keeps the revision", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const outbox = yield* EventOutbox
      const projects = yield* ProjectRepository
      const { projectId } = yield* givenFlag("development")
      const before = yield* flags.get(projectId, "flag")
      const eventsBefore = (yield* outbox.list(projectId)).length
      const revisionBefore = yield* projects.revision(projectId)
      const error = yield* Effect.flip(
        flags.replaceTargeting(
          projectId,
          "flag",
          enabledWith("development", [
            { id: "good", conditions: [], variationKey: "on" },
            { id: "bad", conditions: [], variationKey: "no-such-variation" }
          ])
        )
      )
      expect(error._tag).toBe("InvalidRequest")
      if (error._tag === "InvalidRequest") expect(error.details.map((d) => d.path)).toContain("rules[1].variationKey")
      expect(yield* flags.get(projectId, "flag")).toEqual(before)
      expect((yield* outbox.list(projectId)).length).toBe(eventsBefore)
      expect(yield* projects.revision(projectId)).toEqual(revisionBefore)
    }))

  it.effect("unknown environment, flag or segment", () =>
    Effect.gen(function* () {
      const flags = yield* Flags
      const { projectId } = yield* givenFlag("development")
      expect((yield* Effect.flip(flags.replaceTargeting(projectId, "flag", enabledWith("nowhere", []))))._tag).toBe(
        "ResourceNotFound"
      )
      expect((yield* Effect.flip(flags.replaceTargeting(projectId, "nope", enabledWith("development", []))))._tag).toBe(
        "ResourceNotFound"
      )
      const segment = yield* Effect.flip(
        flags.replaceTargeting(
          projectId,
          "flag",
          enabledWith("development", [{ conditions: [{ operator: "inSegment", values: ["ghost"] }], variationKey: "on" }])
        )
      )
      expect(segment._tag).toBe("InvalidRequest")
    }))

  it.effect(
    "concurrent replaces on one flag never tear a config nor lose an update",
    () =>
      Effect.gen(function* () {
        const flags = yield* Flags
        const outbox = yield* EventOutbox
        const { projectId } = yield* givenFlag("development", "production")
        const writers = 16
        const inputs = Array.from({ length: writers }, (_, i) =>
          enabledWith(
            i % 2 === 0 ? "development" : "production",
            Array.from({ length: 3 }, (_, j) => ({
              id: `w${i}-r${j}`,
              conditions: [{ attribute: "writer", operator: "in" as const, values: [i, j] }],
              variationKey: j % 2 === 0 ? "on" : "off"
            }))
          )
        )
        const results = yield* Effect.forEach(inputs, (input) => flags.replaceTargeting(projectId, "flag", input), {
          concurrency: "unbounded"
        })
        // Each write saw the previous one: versions 2..17, each exactly once.
        expect(results.map((f) => f.version).sort((a, b) => a - b)).toEqual(
          Array.from({ length: writers }, (_, i) => i + 2)
        )
        const final = yield* flags.get(projectId, "flag")
        expect(final.version).toBe(writers + 1)
        // Every stored config is exactly one writer's config, not a mix.
        for (const config of final.configs) {
          const writer = config.rules[0]!.id.split("-")[0]!
          const sent = inputs[Number(writer.slice(1))]!
          expect(config.environmentKey).toBe(sent.environment)
          expect(config.rules).toEqual(sent.rules)
        }
        // The last writer per environment (highest version) won.
        const lastOf = (env: string) =>
          results.filter((f, i) => inputs[i]!.environment === env).sort((a, b) => b.version - a.version)[0]!
        for (const env of ["development", "production"]) {
          expect(final.configs.find((c) => c.environmentKey === env)).toEqual(
            lastOf(env).configs.find((c) => c.environmentKey === env)
          )
        }
        const events = (yield* outbox.list(projectId)).filter((e) => e.event.type === "targeting.updated")
        expect(events.map((e) => flagData(e.event).flag.version).sort((a, b) => a - b)).toEqual(
          results.map((f) => f.version).sort((a, b) => a - b)
        )
      }),
    60_000
  )
}
