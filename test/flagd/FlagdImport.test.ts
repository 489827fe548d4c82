/**
 * The FlagdImport use case on real SQLite and PostgreSQL databases: the imported flags evaluate as
 * their translation says in the chosen environment, and the import is one transaction: a write
 * that fails part-way (here the second flag's targeting, refused by a wrapper around the real
 * Flags service, as a failing storage would) leaves no flag of the file behind.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { CurrentActor } from "../../src/domain/audit/Actor.js"
import { InvalidRequest } from "../../src/domain/Errors.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import { Flags } from "../../src/services/flags/Flags.js"
import * as FlagdImport from "../../src/services/flagd/FlagdImport.js"
import { Projects } from "../../src/services/projects/Projects.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Snapshots } from "../../src/services/evaluation/Snapshots.js"
import { freshStorage } from "../fixtures/databases.js"

const FILE = {
  flags: {
    first: { state: "ENABLED", variants: { on: true, off: false }, defaultVariant: "off", targeting: { if: [{ "!=": [{ var: "plan" }, "free"] }, "on", "off"] } },
    second: { state: "ENABLED", variants: { a: "A", b: "B" }, defaultVariant: "a", targeting: { if: [{ starts_with: [{ var: "targetingKey" }, "admin-"] }, "b"] } }
  }
}

const setUp = (project: string) =>
  Effect.gen(function* () {
    yield* (yield* Projects).create({ id: project, name: project })
    yield* (yield* Environments).create(project, { key: "staging", name: "Staging" })
    yield* (yield* Environments).create(project, { key: "production", name: "Production" })
  })

const asCli = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, CurrentActor, { type: "cli" })

describe.each(["sqlite", "postgres"] as const)("flagd import (%s)", (backend) => {
  layer(freshStorage(backend), { timeout: 60_000 })((it) => {
    it.effect("imported flags serve in the chosen environment what the flagd targeting says", () =>
      asCli(Effect.gen(function* () {
        yield* setUp("shop")
        const report = yield* (yield* FlagdImport.FlagdImport).importFlags("shop", "production", FILE, { skipUnsupported: false, dryRun: false })
        expect(report.written).toBe(true)
        const { snapshot } = yield* (yield* Snapshots).snapshot("shop", "production")
        const compiled = Evaluate.compile(snapshot)
        const served = (key: string, ctx: { key: string; attributes?: Record<string, unknown> }) => Evaluate.evaluate(compiled, key, ctx).variationKey
        expect(served("first", { key: "u1", attributes: { plan: "free" } })).toBe("off")
        expect(served("first", { key: "u1", attributes: { plan: "pro" } })).toBe("on")
        expect(served("first", { key: "u1" })).toBe("on")
        expect(served("second", { key: "admin-7" })).toBe("b")
        expect(served("second", { key: "user-7" })).toBe("a")
        const staging = Evaluate.compile((yield* (yield* Snapshots).snapshot("shop", "staging")).snapshot)
        expect(Evaluate.evaluate(staging, "first", { key: "u1", attributes: { plan: "pro" } }).reason.kind).toBe("OFF")
      })))

    it.effect("one transaction: a write failing part-way leaves none of the file's flags", () =>
      asCli(Effect.gen(function* () {
        yield* setUp("atomic")
        const flags = yield* Flags
        const failingSecond = Flags.of({
          ...flags,
          replaceTargeting: (projectId, flagKey, input, options) =>
            flagKey === "second"
              ? Effect.fail(new InvalidRequest({ message: "refused for the test", details: [] }))
              : flags.replaceTargeting(projectId, flagKey, input, options)
        })
        const importer = yield* Effect.provideService(FlagdImport.make, Flags, failingSecond)
        const failed = yield* Effect.flip(importer.importFlags("atomic", "production", FILE, { skipUnsupported: false, dryRun: false }))
        expect(failed.message).toBe("refused for the test")
        expect((yield* flags.list("atomic")).map((f) => f.key)).toEqual([])
      })))
  })
})
