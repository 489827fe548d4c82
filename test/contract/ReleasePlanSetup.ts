/**
 * What the release plans' contract suites share (ReleasePlans.contract.ts, ReleasePlanChanges.contract.ts):
 * a flag with a rule to ramp, a plan's input, the rule's weights, the plans' audit and events, the
 * stepper, and the TestClock's days. The suites share one database and one count of days, so every
 * test of either runs earlier than the one before, and a plan an earlier test left running is not
 * due at a later test's time.
 */
import { Effect, Option, TestClock, TestContext } from "effect"
import { type Actor, CurrentActor } from "../../src/domain/audit/Actor.js"
import type { CreateReleasePlanInput } from "../../src/domain/releaseplans/ReleasePlan.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { stepDuePlans } from "../../src/services/releaseplans/ReleaseStepper.js"
import { givenApprover } from "./Approver.js"
import { givenFlag } from "./Backend.js"

export const DAY = Date.parse("2026-11-02T00:00:00.000Z")
const options = { lease: "30 seconds", batchSize: 100 } as const

/** The flag's production targeting: rule `all` serving `off` to everyone. */
export const givenRule = Effect.gen(function* () {
  const { projectId } = yield* givenFlag("production", "staging")
  yield* (yield* Flags).replaceTargeting(projectId, "flag", {
    environment: "production",
    enabled: true,
    defaultVariationKey: "off",
    offVariationKey: "off",
    rules: [{ id: "all", conditions: [], variationKey: "off" }]
  })
  return projectId
})

export const input = (overrides: Partial<CreateReleasePlanInput> = {}): CreateReleasePlanInput => ({
  environment: "production",
  ruleId: "all",
  variationKey: "on",
  steps: [{ weight: 10_000, holdMinutes: 1 }, { weight: 50_000, holdMinutes: 1 }],
  ...overrides
})

export const ruleWeights = (projectId: string) =>
  Effect.map(Effect.flatMap(FlagRepository, (flags) => flags.get(projectId, "flag")), (flag) =>
    Option.getOrThrow(flag).configs.find((c) => c.environmentKey === "production")!.rules[0]!.rollout?.variations.map((s) => [s.variationKey, s.weight]))

export const planEvents = (projectId: string) =>
  Effect.map(Effect.flatMap(EventOutbox, (outbox) => outbox.list(projectId)), (entries) =>
    entries.map((entry) => entry.event.type).filter((type) => type.startsWith("release_plan.")))

export const planAudit = (projectId: string) =>
  Effect.map(Effect.flatMap(Audit, (audit) => audit.list(projectId, { resourceType: "release_plan" })), (page) => page.data.slice().reverse())

/** The operator (the CLI, an Effect host): acts as a project admin, and is never refused for protection. */
export const OPERATOR: Actor = { type: "cli" }
export const as = <A, E, R>(actor: Actor, effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, CurrentActor, actor)

/** `givenRule` with production protected, and a person who may approve there (a global admin). */
export const givenProtected = Effect.gen(function* () {
  const projectId = yield* givenRule
  yield* (yield* Environments).update(projectId, "production", { protected: true })
  return { projectId, approver: yield* givenApprover }
})

/** Advances every due plan (of this test's project: the others' are not due at this test's time). */
export const step = (owner = "stepper-a") => stepDuePlans(owner, options)

export const minutes = (m: number) => TestClock.adjust(`${m * 60} seconds`)

/**
 * Runs a test on its own day, each earlier than the one before: the database is shared, and the
 * plans an earlier test left running are then not due at a later test's time.
 */
let days = 0
export const atDay = <A, E, R>(body: (day: number) => Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const day = DAY - 30 * 86_400_000 * ++days
    return Effect.zipRight(TestClock.setTime(day), body(day)).pipe(Effect.provide(TestContext.TestContext))
  })
