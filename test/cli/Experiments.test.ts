/**
 * `flagport experiments list|show|start|stop` through the real binary on a SQLite file: the same
 * use case as the API (a draft starts once, a stopped one keeps its decision), audited as `cli`,
 * with the webhook events of the API; a refused start or stop changes nothing and exits 1.
 */
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { ExperimentResults } from "../../src/services/experiments/ExperimentResults.js"
import { Experiments } from "../../src/services/experiments/Experiments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { freshSqliteUrl, keyLines, runCli } from "./Process.js"
import { withStorage as withDatabase } from "./Databases.js"

const TIMEOUT = 120_000
const env = { DATABASE_URL: freshSqliteUrl() }

const withStorage = <A>(effect: Effect.Effect<A, unknown, StorageLayer.Storage>): Promise<A> => withDatabase(env.DATABASE_URL, effect)

beforeAll(async () => {
  expect((await runCli(["seed"], env)).code).toBe(0)
  await withStorage(
    Effect.gen(function* () {
      const flags = yield* Flags
      yield* flags.create("default", { key: "new-checkout", name: "New checkout", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
      yield* flags.replaceTargeting("default", "new-checkout", {
        environment: "production",
        enabled: true,
        defaultVariationKey: "off",
        offVariationKey: "off",
        rules: [{ id: "half", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] } }]
      })
      yield* (yield* Experiments).create("default", {
        key: "checkout-redesign",
        name: "Checkout redesign",
        flagKey: "new-checkout",
        environment: "production",
        ruleId: "half",
        controlVariationKey: "off",
        metrics: [{ key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" }]
      })
    })
  )
}, TIMEOUT)

const experiment = () => withStorage(Effect.flatMap(Experiments, (experiments) => experiments.get("default", "checkout-redesign")))

describe("flagport experiments", () => {
  it("list and show print the experiments; an unknown one exits 1 naming the database", { timeout: TIMEOUT }, async () => {
    const listed = await runCli(["experiments", "list"], env)
    expect(listed.code, listed.stderr).toBe(0)
    const [header, row] = listed.stdout.trim().split("\n").map((line) => line.split(/\s{2,}/))
    expect(header).toEqual(["KEY", "STATUS", "FLAG", "ENVIRONMENT", "RULE", "STARTED", "NAME"])
    expect(row).toEqual(["checkout-redesign", "draft", "new-checkout", "production", "half", "-", "Checkout redesign"])
    const json = await runCli(["experiments", "list", "--json"], env)
    expect(JSON.parse(json.stdout)).toEqual({ data: [await experiment()] })

    const shown = await runCli(["experiments", "show", "checkout-redesign"], env)
    expect(shown.code, shown.stderr).toBe(0)
    expect(keyLines(shown.stdout)).toMatchObject({
      EXPERIMENT: "checkout-redesign",
      STATUS: "draft",
      RULE: "half",
      CONTROL: "off",
      METRICS: "buys(conversion,primary)",
      ANALYSIS: "sequential alpha=0.05",
      STARTED: "-"
    })
    const missing = await runCli(["experiments", "show", "nope"], env)
    expect(missing.code).toBe(1)
    expect(missing.stderr.trim()).toBe(`error: Experiment 'nope' not found in project 'default' of ${env.DATABASE_URL}`)
  })

  it("start, then stop with a decision: audited as cli, with the webhook events; each only once", { timeout: TIMEOUT }, async () => {
    const started = await runCli(["experiments", "start", "checkout-redesign"], env)
    expect(started.code, started.stderr).toBe(0)
    expect(keyLines(started.stdout)).toMatchObject({ STATUS: "running", STOPPED: "-" })
    expect((await experiment()).startedAt).toBe(keyLines(started.stdout).STARTED)
    const again = await runCli(["experiments", "start", "checkout-redesign"], env)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("Experiment 'checkout-redesign' is running; only a draft can be started")

    // A note without a decision, and a decision naming a variation the flag lacks, change nothing.
    const noteOnly = await runCli(["experiments", "stop", "checkout-redesign", "--note", "why"], env)
    expect(noteOnly.code).not.toBe(0)
    expect(noteOnly.stderr).toContain("--ship VARIATION")
    const unknown = await runCli(["experiments", "stop", "checkout-redesign", "--ship", "maybe"], env)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain("flag 'new-checkout' has no variation 'maybe'")
    expect((await experiment()).status).toBe("running")

    const stopped = await runCli(["experiments", "stop", "checkout-redesign", "--ship", "on", "--note", "Purchases up"], env)
    expect(stopped.code, stopped.stderr).toBe(0)
    expect(keyLines(stopped.stdout)).toMatchObject({ STATUS: "stopped", DECISION: "on" })
    expect((await experiment()).decision).toEqual({ variationKey: "on", note: "Purchases up" })

    const audit = await withStorage(Effect.flatMap(Audit, (a) => a.list("default", { resourceType: "experiment" })))
    expect(audit.data.map((entry) => [entry.action, entry.actor])).toEqual([
      ["experiment.stopped", { type: "cli" }],
      ["experiment.started", { type: "cli" }],
      ["experiment.created", { type: "cli" }]
    ])
    const events = await withStorage(Effect.flatMap(EventOutbox, (outbox) => outbox.list("default")))
    expect(events.map((entry) => entry.event.type).filter((type) => type.startsWith("experiment."))).toEqual(["experiment.started", "experiment.stopped"])
  })

  it("results prints the checks, then a row per metric and variation; --json is the API's answer", { timeout: TIMEOUT }, async () => {
    const shown = await runCli(["experiments", "results", "checkout-redesign"], env)
    expect(shown.code, shown.stderr).toBe(0)
    const [checks, table] = shown.stdout.split("\n\n")
    expect(keyLines(checks!)).toMatchObject({
      EXPERIMENT: "checkout-redesign",
      METHOD: "sequential alpha=0.05",
      TRUSTWORTHY: "yes",
      UNITS_IN_SEVERAL_VARIATIONS: "0",
      NOT_ENOUGH_DATA: "yes (fewer than 100 units in some variation)"
    })
    const rows = table!.trim().split("\n").map((line) => line.split(/\s{2,}/))
    expect(rows[0]).toEqual(["METRIC", "VARIATION", "UNITS", "MEAN", "LIFT", "INTERVAL", "P/CHANCE", "VERDICT"])
    expect(rows.slice(1).map((row) => [row[0], row[1], row[2], row.at(-1)])).toEqual([["buys", "on", "0", "inconclusive"], ["buys", "off", "0", "-"]])
    const json = await runCli(["experiments", "results", "checkout-redesign", "--json"], env)
    expect(JSON.parse(json.stdout)).toEqual(await withStorage(Effect.flatMap(ExperimentResults, (r) => r.results("default", "checkout-redesign"))))
    const missing = await runCli(["experiments", "results", "nope"], env)
    expect(missing.code).toBe(1)
  })
})
