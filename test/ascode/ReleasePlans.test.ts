/**
 * Release plans in the project file, through the use case on the in-memory storage: apply makes
 * the file's plan a draft (after the targeting that makes its rule) and changes the draft; export
 * writes the live plan's definition, never its status; export, apply, export is the same file and a
 * second apply plans nothing; a started plan is never redefined (the whole file refused with the
 * plan's path, nothing applied); a bad plan is refused with each problem's path; prune deletes only
 * drafts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { authorizePlan } from "../../src/domain/ascode/PlanAccess.js"
import { environmentsNamed, plan as planOf } from "../../src/domain/ascode/Plan.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { parseFile, printFile } from "../../src/domain/ascode/FileText.js"
import { planText } from "../../src/domain/ascode/PlanText.js"
import type { FileFlag, FileReleasePlan, ProjectFile } from "../../src/domain/ascode/ProjectFile.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { FlagsAsCode } from "../../src/services/ascode/FlagsAsCode.js"
import { ReleasePlans } from "../../src/services/releaseplans/ReleasePlans.js"

const fresh = <A, E>(effect: Effect.Effect<A, E, StorageLayer.Storage>) => Effect.provide(effect, StorageLayer.memoryStorage)

const ERRORS = { key: "errors", event: "error", kind: "conversion", goal: "decrease", role: "guardrail" } as const

/** A project with one flag whose production rule `everyone` a plan ramps `on` up in. */
const shopFile = (): ProjectFile => ({
  project: { id: "shop", name: "Shop" },
  environments: [{ key: "staging", name: "Staging" }, { key: "production", name: "Production" }],
  flags: [{
    key: "new-checkout",
    name: "New checkout",
    type: "boolean",
    variations: [{ key: "on", value: true }, { key: "off", value: false }],
    environments: [{
      key: "production",
      enabled: true,
      defaultVariationKey: "off",
      offVariationKey: "off",
      rules: [{ id: "everyone", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 0 }, { variationKey: "off", weight: 100_000 }] } }]
    }],
    releasePlans: [{
      environment: "production",
      ruleId: "everyone",
      variationKey: "on",
      steps: [{ weight: 5000, holdMinutes: 60 }, { weight: 100_000, holdMinutes: 60 }],
      guardrails: [ERRORS],
      onHarm: "rollback"
    }]
  }]
})

const shopFlag = shopFile().flags![0]!
const shopPlan = shopFlag.releasePlans![0]!
const production = shopFlag.environments![0]!
/** The shop file with its flag changed by `patch`. */
const withFlag = (patch: Partial<FileFlag>): ProjectFile => ({ ...shopFile(), flags: [{ ...shopFlag, ...patch }] })
const withPlans = (...plans: ReadonlyArray<FileReleasePlan>) => withFlag({ releasePlans: plans })

const plansOf = Effect.flatMap(ReleasePlans, (plans) => plans.list("shop", "new-checkout"))
const exportYaml = Effect.flatMap(FlagsAsCode, (code) => Effect.map(code.exportFile("shop"), (file) => printFile(file, "yaml")))
const reparse = (text: string) => Either.getOrThrow(parseFile(text))
const problemsOf = (error: unknown) => (error as { details: ReadonlyArray<{ path: string; message: string }> }).details

describe("flags as code: release plans", () => {
  it.effect("apply makes the plan a draft after its rule; export writes its definition only; the round trip is the same file", () =>
    Effect.gen(function* () {
      const first = yield* fresh(Effect.gen(function* () {
        const code = yield* FlagsAsCode
        const planned = yield* code.plan("shop", shopFile())
        expect(planned.changes.at(-1)).toMatchObject({ resource: "release_plan", action: "create", key: "new-checkout", environment: "production", before: null })
        expect(planText(planned)).toContain("+ release plan of flag new-checkout in production (a new draft)\n    + environment: production\n    + ruleId: everyone")
        const result = yield* code.apply("shop", shopFile())
        expect(result.applied).toBe(true)
        const [plan] = yield* plansOf
        expect(plan).toMatchObject({ status: "draft", ruleId: "everyone", variationKey: "on", onHarm: "rollback", alpha: 0.05, guardrails: [ERRORS] })
        const audit = yield* Effect.flatMap(Audit, (a) => a.list("shop", { resourceType: "release_plan" }))
        expect(audit.data.map((entry) => entry.action)).toEqual(["release_plan.created"])

        const exported = yield* exportYaml
        expect(exported).toContain([
          "    releasePlans:",
          "      - environment: production",
          "        ruleId: everyone",
          "        variationKey: \"on\""
        ].join("\n"))
        expect(exported).toContain("        onHarm: rollback\n        alpha: 0.05\n")
        expect(exported).not.toMatch(/\b(status|currentStep|nextStepAt|harm|version):|rp-/)
        expect((yield* code.plan("shop", reparse(exported))).changes).toEqual([])
        expect((yield* code.apply("shop", shopFile())).applied).toBe(false)
        expect(yield* plansOf).toHaveLength(1)
        return exported
      }))
      const second = yield* fresh(Effect.gen(function* () {
        yield* Effect.flatMap(FlagsAsCode, (code) => code.apply("shop", reparse(first)))
        return yield* exportYaml
      }))
      expect(second).toBe(first)
    }))

  it.effect("a changed plan updates the draft, based on its version; a started plan is never redefined and the whole file is refused", () =>
    fresh(Effect.gen(function* () {
      const code = yield* FlagsAsCode
      const plans = yield* ReleasePlans
      yield* code.apply("shop", shopFile())
      const [draft] = yield* plansOf
      const changed = withPlans({ ...shopPlan, steps: [shopPlan.steps[0]!, { weight: 25_000, holdMinutes: 30 }, shopPlan.steps[1]!], alpha: 0.01 })
      const planned = yield* code.plan("shop", changed)
      expect(planned.changes).toMatchObject([{ resource: "release_plan", action: "update", basedOn: 1, releasePlanId: draft!.id }])
      expect(planText(planned)).toContain(`~ release plan of flag new-checkout in production (draft ${draft!.id})`)
      yield* code.apply("shop", changed)
      expect(yield* plansOf).toMatchObject([{ id: draft!.id, status: "draft", alpha: 0.01, steps: [{ weight: 5000 }, { weight: 25_000 }, { weight: 100_000 }] }])
      expect((yield* code.plan("shop", changed)).changes).toEqual([])

      // Started, the same definition is no change; another one is refused, with the rest of the file.
      yield* plans.start("shop", "new-checkout", draft!.id)
      expect((yield* code.plan("shop", changed)).changes).toEqual([])
      const renamed = withFlag({ name: "Renamed" })
      const refused = yield* Effect.flip(code.apply("shop", renamed))
      expect(refused._tag).toBe("InvalidRequest")
      expect(problemsOf(refused)).toEqual([{
        path: "flags[0].releasePlans[0]",
        message: `Release plan '${draft!.id}' is running; update is allowed only when it is draft: apply does not change a started plan; ` +
          `cancel it first (flagport release-plans cancel new-checkout ${draft!.id}) to make the file's plan a new draft, or write the plan as it is (flagport export)`
      }])
      expect((yield* exportYaml)).toContain("name: New checkout")
      expect(yield* plansOf).toMatchObject([{ status: "running", alpha: 0.01 }])

      // Cancelled, the plan is history: the file naming it changes nothing, another definition is a new draft.
      yield* plans.cancel("shop", "new-checkout", draft!.id)
      expect((yield* code.plan("shop", changed)).changes).toEqual([])
      expect(yield* exportYaml).not.toContain("releasePlans")
      yield* code.apply("shop", renamed)
      expect((yield* plansOf).map((p) => [p.status, p.alpha, p.steps.length])).toEqual([["cancelled", 0.01, 3], ["draft", 0.05, 2]])
    })))

  it.effect("a bad plan is refused with every problem and its path; nothing is applied", () =>
    fresh(Effect.gen(function* () {
      const code = yield* FlagsAsCode
      const bad = withFlag({
        environments: [{ ...production, rules: [...production.rules!, { conditions: [], variationKey: "on" }] }],
        releasePlans: [
          { environment: "production", ruleId: "everyone", variationKey: "maybe", steps: [{ weight: 50_000, holdMinutes: 60 }, { weight: 5000, holdMinutes: 0 }] },
          { environment: "production", ruleId: "everyone", variationKey: "on", steps: [{ weight: 5000, holdMinutes: 1 }] },
          { environment: "staging", ruleId: "everyone", variationKey: "on", steps: [{ weight: 5000, holdMinutes: 1 }] },
          { environment: "qa", ruleId: "everyone", variationKey: "on", steps: [{ weight: 5000, holdMinutes: 1 }] },
          { environment: "production", ruleId: "everyone", variationKey: "on", steps: [{ weight: 5000, holdMinutes: 1 }], onHarm: "explode" as never }
        ]
      })
      const refused = yield* Effect.flip(code.apply("shop", bad))
      expect(refused.message).toBe("Invalid project file")
      const problems = problemsOf(refused)
      expect(problems.filter((p) => p.path.startsWith("flags[0].releasePlans"))).toEqual([
        { path: "flags[0].releasePlans[0].steps[1].holdMinutes", message: "must be a number of minutes from 0.05 to 43200" },
        { path: "flags[0].releasePlans[0].steps[1].weight", message: "must be greater than the previous step's weight (50000)" },
        { path: "flags[0].releasePlans[0].variationKey", message: "flag 'new-checkout' has no variation 'maybe'" },
        { path: "flags[0].releasePlans[1].environment", message: "duplicate environment \"production\": a flag has at most one release plan per environment" },
        { path: "flags[0].releasePlans[2].ruleId", message: "flag 'new-checkout' has no rule 'everyone' in environment 'staging'" },
        { path: "flags[0].releasePlans[3].environment", message: "flag 'new-checkout' has no environment 'qa'" },
        { path: "flags[0].releasePlans[4].environment", message: "duplicate environment \"production\": a flag has at most one release plan per environment" },
        { path: "flags[0].releasePlans[4].onHarm", message: expect.stringContaining("Expected \"pause\" | \"rollback\", actual \"explode\"") }
      ])
      expect(yield* Effect.either(code.exportFile("shop"))).toMatchObject({ _tag: "Left" })

      // A rule the file adds without an id cannot be named by a plan: give it one.
      const unnamed = withFlag({ environments: [{ ...production, rules: [{ conditions: [], rollout: production.rules![0]!.rollout! }] }] })
      expect(problemsOf(yield* Effect.flip(code.apply("shop", unnamed)))).toEqual([
        { path: "flags[0].releasePlans[0].ruleId", message: "flag 'new-checkout' has no rule 'everyone' in environment 'production'" }
      ])
    })))

  it.effect("prune deletes a draft the file leaves out, never a started plan", () =>
    fresh(Effect.gen(function* () {
      const code = yield* FlagsAsCode
      yield* code.apply("shop", shopFile())
      const { releasePlans: _left, ...flagWithout } = shopFlag
      const without: ProjectFile = { ...shopFile(), flags: [flagWithout] }
      expect((yield* code.plan("shop", without)).changes).toEqual([])
      const pruning = yield* code.plan("shop", without, { prune: true })
      expect(pruning.changes).toMatchObject([{ resource: "release_plan", action: "delete", environment: "production" }])
      expect(planText(pruning)).toContain("- release plan of flag new-checkout in production (draft rp-")
      yield* code.apply("shop", without, { prune: true })
      expect(yield* plansOf).toEqual([])

      yield* code.apply("shop", shopFile())
      const [draft] = yield* plansOf
      yield* Effect.flatMap(ReleasePlans, (plans) => plans.start("shop", "new-checkout", draft!.id))
      expect((yield* code.plan("shop", without, { prune: true })).changes).toEqual([])
    })))

  it.effect("while a plan holds its rule, the rule's weights are the plan's: a file written before a step plans no change for them", () =>
    fresh(Effect.gen(function* () {
      const code = yield* FlagsAsCode
      yield* code.apply("shop", shopFile())
      const [draft] = yield* plansOf
      yield* Effect.flatMap(ReleasePlans, (plans) => plans.start("shop", "new-checkout", draft!.id))
      // The plan's first step, as the stepper writes it: the rule at 5% on.
      const stepped = { variations: [{ variationKey: "on", weight: 5000 }, { variationKey: "off", weight: 95_000 }] }
      yield* Effect.flatMap(Flags, (flags) =>
        flags.replaceTargeting("shop", "new-checkout", { ...production, environment: "production", rules: [{ ...production.rules![0]!, rollout: stepped }] }))
      expect((yield* code.plan("shop", shopFile())).changes).toEqual([])

      // The rule's conditions are still the file's; what it serves stays the plan's.
      const narrowed = withFlag({ environments: [{ ...production, rules: [{ ...production.rules![0]!, conditions: [{ attribute: "country", operator: "in", values: ["FR"] }] }] }] })
      const planned = yield* code.plan("shop", narrowed)
      expect(planned.changes).toMatchObject([{ resource: "targeting", after: { rules: [{ id: "everyone", conditions: [{ attribute: "country" }], rollout: stepped }] } }])
      // The plan's starting point (all "off") is the same variations; serving only "on" is not: written as the file says.
      const allOff = withFlag({ environments: [{ ...production, rules: [{ id: "everyone", conditions: [], variationKey: "off" }] }] })
      expect((yield* code.plan("shop", allOff)).changes).toEqual([])
      const onlyOn = withFlag({ environments: [{ ...production, rules: [{ id: "everyone", conditions: [], variationKey: "on" }] }] })
      expect((yield* code.plan("shop", onlyOn)).changes).toMatchObject([{ resource: "targeting", after: { rules: [{ id: "everyone", variationKey: "on" }] } }])

      // Cancelled, the plan no longer holds the rule: the file's weights are written again.
      yield* Effect.flatMap(ReleasePlans, (plans) => plans.cancel("shop", "new-checkout", draft!.id))
      expect((yield* code.plan("shop", shopFile())).changes).toMatchObject([{ resource: "targeting", after: { rules: [{ rollout: production.rules![0]!.rollout }] } }])
    })))

  it("a key bound to another environment may neither write a plan nor name one", () => {
    const state = { project: { id: "shop", name: "Shop", createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" }, environments: [], segments: [], flags: [], releasePlans: [] }
    const file = withPlans({ ...shopPlan })
    const changes = planOf("shop", state, file, { prune: false }).changes.filter((c) => c.resource === "release_plan")
    expect(changes).toHaveLength(1)
    const planned = { projectId: "shop", changes, environmentsNamed: environmentsNamed({ ...file, environments: [], flags: [{ ...shopFlag, environments: [] }] }) }
    expect(planned.environmentsNamed).toEqual(["production"])
    const boundTo = (environment: string) => ({ _tag: "ProjectServer", keyId: "k", projectId: "shop", environment }) as const
    expect(Either.isRight(authorizePlan(boundTo("production"), planned))).toBe(true)
    expect(authorizePlan(boundTo("staging"), planned)).toMatchObject({ _tag: "Left", left: { _tag: "Forbidden" } })
    expect(authorizePlan(boundTo("staging"), { ...planned, changes: [] })).toMatchObject({ _tag: "Left", left: { _tag: "Forbidden" } })
  })
})
