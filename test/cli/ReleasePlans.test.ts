/**
 * `flagport release-plans ...` through the real binary on one SQLite file, shared by the cases
 * (each case picks up the plan where the one before left it): the same use case as the API (the
 * plan's rules with their paths, the transitions' table), audited as `cli`, with the webhook events
 * of the API; a refused command changes nothing and exits 1, a wrong command line exits 2. And the
 * project file through the binary: export writes a running plan's definition, apply of it as it is
 * does nothing, apply of another definition is refused with the plan's path.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import type * as StorageLayer from "../../adapters/app/Composition.js"
import { actingAs, operator } from "../../src/domain/auth/Caller.js"
import type { ReleasePlan } from "../../src/domain/releaseplans/ReleasePlan.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { ReleasePlans } from "../../src/services/releaseplans/ReleasePlans.js"
import { withStorage as withDatabase } from "./Databases.js"
import { freshSqliteUrl, keyLines, runCli } from "./Process.js"

const TIMEOUT = 120_000
const env = { DATABASE_URL: freshSqliteUrl() }
const withStorage = <A>(effect: Effect.Effect<A, unknown, StorageLayer.Storage>): Promise<A> => withDatabase(env.DATABASE_URL, effect)

const ERRORS = JSON.stringify({ key: "errors", event: "error", kind: "conversion", goal: "decrease", role: "guardrail" })
const targeting = (weightOn: number) => ({
  environment: "production",
  enabled: true,
  defaultVariationKey: "off",
  offVariationKey: "off",
  rules: [{ id: "everyone", conditions: [], rollout: { variations: [{ variationKey: "on", weight: weightOn }, { variationKey: "off", weight: 100_000 - weightOn }] } }]
})

beforeAll(async () => {
  expect((await runCli(["seed"], env)).code).toBe(0)
  await withStorage(
    Effect.gen(function* () {
      const flags = yield* Flags
      yield* flags.create("default", { key: "new-checkout", name: "New checkout", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
      yield* flags.replaceTargeting("default", "new-checkout", targeting(0))
    })
  )
}, TIMEOUT)

const plans = () => withStorage(Effect.flatMap(ReleasePlans, (p) => p.list("default", "new-checkout")))
let id = ""
const plan = async (): Promise<ReleasePlan> => (await plans()).find((p) => p.id === id)!

describe("flagport release-plans", () => {
  it("create refuses a bad plan with every problem and its path, a wrong command line with exit 2, and makes nothing", { timeout: TIMEOUT }, async () => {
    const base = ["release-plans", "create", "new-checkout", "--environment", "production", "--variation", "on"]
    // Independent refusals, run side by side to keep the file fast.
    const [bad, badGuardrail, malformedStep, notJson, unknownFlag] = await Promise.all([
      runCli([...base, "--rule", "nobody", "--step", "50000:60", "--step", "25000:0.01", "--alpha", "0.9"], env),
      runCli([...base, "--rule", "everyone", "--step", "5000:1", "--guardrail", JSON.stringify({ key: "errors", event: "error", kind: "rate" })], env),
      runCli([...base, "--rule", "everyone", "--step", "5%"], env),
      runCli([...base, "--rule", "everyone", "--step", "5000:1", "--guardrail", "errors"], env),
      runCli(["release-plans", "create", "old-checkout", "--environment", "production", "--rule", "everyone", "--variation", "on", "--step", "5000:1"], env)
    ])
    expect(bad.code).toBe(1)
    expect(bad.stderr.trim().split("\n")).toHaveLength(1)
    expect(bad.stderr).toMatch(/^error: Invalid release plan \(/)
    for (const problem of [
      "steps[1].weight: must be greater than the previous step's weight (50000)",
      "steps[1].holdMinutes: must be a number of minutes from 0.05 to 43200",
      "alpha: must be greater than 0 and at most 0.5",
      "ruleId: flag 'new-checkout' has no rule 'nobody' in environment 'production'"
    ]) expect(bad.stderr).toContain(problem)

    expect(badGuardrail.code).toBe(1)
    expect(badGuardrail.stderr).toMatch(/^error: invalid release plan \(guardrails\.0\.kind: /)

    expect(malformedStep.code).toBe(2)
    expect(malformedStep.stderr.trim()).toBe("error: --step takes WEIGHT:MINUTES (e.g. --step 5000:60 for 5% held an hour), not '5%'")
    expect(notJson.code).toBe(2)
    expect(unknownFlag.code).toBe(1)
    expect(unknownFlag.stderr).toContain("Flag 'old-checkout' not found in project 'default'")
    expect(await plans()).toEqual([])
  })

  it("create, list and show: KEY=value lines, a table, and --json as the API shows the plan", { timeout: TIMEOUT }, async () => {
    const created = await runCli([
      "release-plans", "create", "new-checkout", "--environment", "production", "--rule", "everyone", "--variation", "on",
      "--step", "5000:60", "--step", "25000:60", "--step", "100000:0.05", "--guardrail", ERRORS, "--on-harm", "rollback"
    ], env)
    expect(created.code, created.stderr).toBe(0)
    const lines = keyLines(created.stdout)
    id = lines.PLAN!
    expect(id).toMatch(/^rp-/)
    expect(lines).toMatchObject({
      FLAG: "new-checkout",
      ENVIRONMENT: "production",
      RULE: "everyone",
      VARIATION: "on",
      STATUS: "draft",
      STEP: "-",
      STEPS: "5000:60 25000:60 100000:0.05",
      GUARDRAILS: "errors(conversion,decrease)",
      ON_HARM: "rollback",
      ALPHA: "0.05",
      NEXT_STEP_AT: "-",
      VERSION: "1"
    })

    const listed = await runCli(["release-plans", "list", "new-checkout"], env)
    expect(listed.code, listed.stderr).toBe(0)
    const [header, row] = listed.stdout.trim().split("\n").map((line) => line.split(/\s{2,}/))
    expect(header).toEqual(["ID", "STATUS", "ENVIRONMENT", "RULE", "VARIATION", "STEP", "WEIGHT", "NEXT_STEP_AT"])
    expect(row).toEqual([id, "draft", "production", "everyone", "on", "-", "-", "-"])
    const json = await runCli(["release-plans", "list", "new-checkout", "--json"], env)
    expect(JSON.parse(json.stdout)).toEqual({ data: await plans() })

    const shown = await runCli(["release-plans", "show", "new-checkout", id, "--json"], env)
    expect(JSON.parse(shown.stdout)).toEqual(await plan())
    const missing = await runCli(["release-plans", "show", "new-checkout", "rp-nope"], env)
    expect(missing.code).toBe(1)
    expect(missing.stderr.trim()).toBe(`error: Release plan 'rp-nope' not found for flag 'new-checkout' in ${env.DATABASE_URL}`)
  })

  it("update changes only what is given, while a draft; a started plan cannot be redefined", { timeout: TIMEOUT }, async () => {
    const nothing = await runCli(["release-plans", "update", "new-checkout", id], env)
    expect(nothing.code).toBe(2)
    const updated = await runCli(["release-plans", "update", "new-checkout", id, "--alpha", "0.01", "--no-guardrails"], env)
    expect(updated.code, updated.stderr).toBe(0)
    expect(keyLines(updated.stdout)).toMatchObject({ ALPHA: "0.01", GUARDRAILS: "-", STEPS: "5000:60 25000:60 100000:0.05", ON_HARM: "rollback", VERSION: "2" })
    const refused = await runCli(["release-plans", "update", "new-checkout", id, "--step", "100:1", "--step", "50:1"], env)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("steps[1].weight: must be greater than the previous step's weight (100)")
    expect((await plan()).steps).toHaveLength(3)

    const started = await runCli(["release-plans", "start", "new-checkout", id], env)
    expect(started.code, started.stderr).toBe(0)
    expect(keyLines(started.stdout)).toMatchObject({ STATUS: "running", STEP: "-" })
    const redefine = await runCli(["release-plans", "update", "new-checkout", id, "--alpha", "0.02"], env)
    expect(redefine.code).toBe(1)
    expect(redefine.stderr.trim()).toBe(`error: Release plan '${id}' is running; update is allowed only when it is draft`)
    const again = await runCli(["release-plans", "start", "new-checkout", id], env)
    expect(again.code).toBe(1)
    const deleteRunning = await runCli(["release-plans", "delete", "new-checkout", id], env)
    expect(deleteRunning.code).toBe(1)
    expect(deleteRunning.stderr).toContain("delete is allowed only when it is draft or completed or cancelled")
    expect((await plan()).alpha).toBe(0.01)

    // In the project file: export writes the running plan's definition; applied as it is, nothing
    // to do; redefined, the whole file is refused with the plan's path.
    const exported = await runCli(["export", "--project", "default"], env)
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stdout).toContain("    releasePlans:\n      - environment: production\n        ruleId: everyone\n")
    expect(exported.stdout).not.toContain("status")
    const dir = mkdtempSync(join(tmpdir(), "flagport-rp-"))
    writeFileSync(join(dir, "same.yaml"), exported.stdout)
    writeFileSync(join(dir, "redefined.yaml"), exported.stdout.replace("alpha: 0.01", "alpha: 0.02"))
    const [same, redefined] = await Promise.all([runCli(["apply", join(dir, "same.yaml")], env), runCli(["apply", join(dir, "redefined.yaml")], env)])
    expect(same.code, same.stderr).toBe(0)
    expect(same.stdout.trim()).toBe("Project default: no changes; it is as the file says.")
    expect(redefined.code).toBe(1)
    expect(redefined.stderr.trim().split("\n")).toEqual([
      "error: Invalid project file: nothing was applied",
      `  flags[0].releasePlans[0]: Release plan '${id}' is running; update is allowed only when it is draft: apply does not change a started plan; ` +
      `cancel it first (flagport release-plans cancel new-checkout ${id}) to make the file's plan a new draft, or write the plan as it is (flagport export)`
    ])
    expect((await plan()).alpha).toBe(0.01)
  })

  it("pause, resume (--confirm after a person's change), cancel, delete: audited as cli, with the API's webhook events", { timeout: TIMEOUT }, async () => {
    const paused = await runCli(["release-plans", "pause", "new-checkout", id], env)
    expect(paused.code, paused.stderr).toBe(0)
    expect(keyLines(paused.stdout)).toMatchObject({ STATUS: "paused", PAUSED_BY: "manual" })
    expect(keyLines((await runCli(["release-plans", "resume", "new-checkout", id], env)).stdout).STATUS).toBe("running")

    // A person changes the rule by hand: the plan pauses, and resumes only when confirmed.
    await withStorage(Effect.flatMap(Flags, (f) => f.replaceTargeting("default", "new-checkout", targeting(10_000))).pipe(actingAs(operator, { type: "user", userId: "u-edna" })))
    expect((await plan()).pausedBy).toBe("targetingChanged")
    const unconfirmed = await runCli(["release-plans", "resume", "new-checkout", id], env)
    expect(unconfirmed.code).toBe(1)
    expect(unconfirmed.stderr).toContain("was changed directly; resume with { \"confirm\": true }")
    const confirmed = await runCli(["release-plans", "resume", "new-checkout", id, "--confirm", "--json"], env)
    expect(confirmed.code, confirmed.stderr).toBe(0)
    expect(JSON.parse(confirmed.stdout)).toEqual(await plan())
    expect((await plan()).status).toBe("running")

    const cancelled = await runCli(["release-plans", "cancel", "new-checkout", id], env)
    expect(keyLines(cancelled.stdout).STATUS).toBe("cancelled")
    const deleted = await runCli(["release-plans", "delete", "new-checkout", id], env)
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.stdout.trim()).toBe(`DELETED=${id}`)
    expect(await plans()).toEqual([])

    const audit = await withStorage(Effect.flatMap(Audit, (a) => a.list("default", { resourceType: "release_plan" })))
    expect(audit.data.map((entry) => [entry.action, entry.actor.type])).toEqual([
      ["release_plan.deleted", "cli"],
      ["release_plan.cancelled", "cli"],
      ["release_plan.resumed", "cli"],
      ["release_plan.paused", "user"],
      ["release_plan.resumed", "cli"],
      ["release_plan.paused", "cli"],
      ["release_plan.started", "cli"],
      ["release_plan.updated", "cli"],
      ["release_plan.created", "cli"]
    ])
    const events = await withStorage(Effect.flatMap(EventOutbox, (outbox) => outbox.list("default")))
    expect(events.map((entry) => entry.event.type).filter((type) => type.startsWith("release_plan."))).toEqual([
      "release_plan.started",
      "release_plan.paused",
      "release_plan.paused",
      "release_plan.cancelled"
    ])
  })
})
