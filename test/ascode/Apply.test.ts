/**
 * Flags as code through the use case (FlagsAsCode.ts) on the in-memory storage: export and apply
 * round trip byte for byte, apply is idempotent, a dry run writes nothing, a file's problems are
 * all reported with their paths and nothing is applied, prune deletes only when asked, an edit
 * between the plan and the apply is refused, every write is audited with its actor.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { parseFile, printFile } from "../../src/domain/ascode/FileText.js"
import { CurrentActor } from "../../src/domain/audit/Actor.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { FlagsAsCode } from "../../src/services/ascode/FlagsAsCode.js"
import { Segments } from "../../src/services/segments/Segments.js"
import { richFile } from "./RichProject.js"

const fresh = <A, E>(effect: Effect.Effect<A, E, StorageLayer.Storage>) => Effect.provide(effect, StorageLayer.memoryStorage)

const exportYaml = (projectId: string) => Effect.flatMap(FlagsAsCode, (code) => Effect.map(code.exportFile(projectId), (file) => printFile(file, "yaml")))

const reparse = (text: string) => Either.getOrThrow(parseFile(text))

describe("flags as code: apply and export", () => {
  it.effect("a rich project applied to an empty storage exports as the file says; its export applied elsewhere exports byte for byte", () =>
    Effect.gen(function* () {
      const first = yield* fresh(Effect.gen(function* () {
        const code = yield* FlagsAsCode
        const result = yield* code.apply("rich", richFile())
        expect(result.applied).toBe(true)
        expect(result.changes[0]).toMatchObject({ resource: "project", action: "create", key: "rich" })
        return yield* exportYaml("rich")
      }))
      const second = yield* fresh(Effect.gen(function* () {
        const code = yield* FlagsAsCode
        yield* code.apply("rich", reparse(first))
        return yield* exportYaml("rich")
      }))
      expect(second).toBe(first)
      expect(first).toContain("operator: semverGt")
      expect(first).toContain("bucketBy: company")
      expect(first).not.toMatch(/^ *(version|createdAt|updatedAt|id: rule-|secret)\b/m)
    }))

  it.effect("a second apply plans nothing; a dry run writes nothing", () =>
    fresh(Effect.gen(function* () {
      const code = yield* FlagsAsCode
      const dry = yield* code.apply("rich", richFile(), { dryRun: true })
      expect(dry.applied).toBe(false)
      expect(dry.summary.create).toBeGreaterThan(5)
      expect(yield* Effect.either(code.exportFile("rich"))).toMatchObject({ _tag: "Left" })
      yield* code.apply("rich", richFile())
      const before = yield* exportYaml("rich")
      const again = yield* code.apply("rich", richFile())
      expect(again).toMatchObject({ applied: false, changes: [], summary: { create: 0, update: 0, delete: 0 } })
      // A file without rule ids keeps the ids the rules were given: still nothing to do.
      const withoutIds = reparse((yield* exportYaml("rich")).replace(/^ *- id: .*\n/gm, (line) => line.replace(/id: .*/, "").trimEnd() + "\n"))
      expect((yield* code.plan("rich", withoutIds)).changes).toEqual([])
      const changed = structuredClone(richFile())
      changed.flags[1]!.environments[0]!.enabled = false
      const dryChange = yield* code.apply("rich", changed, { dryRun: true })
      expect(dryChange.changes).toEqual([expect.objectContaining({ resource: "targeting", key: "kill-switch", environment: "development" })])
      expect(yield* exportYaml("rich")).toBe(before)
    })))

  it.effect("a file with three problems reports all three with their paths in the file and applies nothing", () =>
    fresh(Effect.gen(function* () {
      const code = yield* FlagsAsCode
      // A file edited by hand, wrongly.
      const bad = structuredClone(richFile()) as any
      bad.flags[0].environments[0].rules[1].conditions[0].operator = "equals"
      bad.flags[2].variations[1].value = "lots"
      bad.segments[1].name = ""
      const refused = yield* Effect.flip(code.apply("rich", bad))
      expect(refused._tag).toBe("InvalidRequest")
      const details = (refused as { details: ReadonlyArray<{ path: string; message: string }> }).details
      expect(details.map((d) => d.path)).toEqual([
        "flags[0].environments[0].rules[1].conditions[0].operator",
        "flags[2].variations[1].value",
        "segments[1].name"
      ])
      expect(yield* Effect.either(code.exportFile("rich"))).toMatchObject({ _tag: "Left" })
    })))

  it.effect("prune deletes the flags and segments the file leaves out only when asked", () =>
    fresh(Effect.gen(function* () {
      const code = yield* FlagsAsCode
      yield* code.apply("rich", richFile())
      const flags = yield* Flags
      yield* flags.create("rich", { key: "extra", type: "boolean", variations: [{ key: "t", value: true }, { key: "f", value: false }] })
      yield* (yield* Segments).create("rich", { key: "unused", name: "Unused", conditions: [] })
      expect((yield* code.apply("rich", richFile())).applied).toBe(false)
      expect((yield* flags.list("rich")).map((f) => f.key)).toContain("extra")
      const pruned = yield* code.apply("rich", richFile(), { prune: true })
      expect(pruned.changes.map((c) => `${c.action} ${c.resource} ${c.key}`)).toEqual(["delete flag extra", "delete segment unused"])
      expect((yield* flags.list("rich")).map((f) => f.key)).not.toContain("extra")
    })))

  it.effect("an edit between the plan and the apply is refused, and nothing is applied", () =>
    fresh(Effect.gen(function* () {
      const code = yield* FlagsAsCode
      yield* code.apply("rich", richFile())
      const changed = structuredClone(richFile())
      changed.flags[3]!.environments[0]!.enabled = true
      const shown = yield* code.plan("rich", changed)
      expect(shown.changes).toHaveLength(1)
      const flags = yield* Flags
      const theme = yield* flags.get("rich", "theme")
      yield* flags.patch("rich", "theme", { name: "Theme (edited meanwhile)" })
      const refused = yield* Effect.flip(code.apply("rich", changed, { basedOn: shown }))
      expect(refused).toMatchObject({ _tag: "ResourceConflict", message: "Project 'rich' changed since the plan was made; nothing was applied: plan again" })
      expect((yield* flags.get("rich", "theme")).version).toBe(theme.version + 1)
    })))

  it.effect("every change is one audit entry naming its actor", () =>
    fresh(Effect.gen(function* () {
      const code = yield* FlagsAsCode
      yield* code.apply("rich", richFile())
      const changed = structuredClone(richFile())
      changed.flags[3]!.environments[0]!.enabled = true
      changed.segments[0]!.name = "Staff members"
      const actor = { type: "key" as const, keyId: "k1", keyName: "ci" }
      yield* Effect.provideService(code.apply("rich", changed), CurrentActor, actor)
      const page = yield* (yield* Audit).list("rich", {})
      const latest = page.data.slice(0, 2)
      expect(latest.map((e) => e.action).sort()).toEqual(["segment.updated", "targeting.updated"])
      expect(latest.every((e) => e.actor.keyId === "k1")).toBe(true)
    })))
})
