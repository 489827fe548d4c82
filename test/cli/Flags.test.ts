/**
 * `flagport flags list|get|enable|disable` through the real binary on a SQLite file: the same use
 * case as the API (the write is a targeting replacement with a new version, audited as `cli`),
 * only `enabled` changes, a stale `--if-version` is refused naming the current version, and
 * nothing is written when the flag is already in the asked state.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { freshSqliteUrl, keyLines, runCli } from "./Process.js"
import { withStorage as withDatabase } from "./Databases.js"

const TIMEOUT = 120_000
const env = { DATABASE_URL: freshSqliteUrl() }
const RULE = { id: "beta", conditions: [{ attribute: "plan", operator: "in" as const, values: ["beta"] }], variationKey: "on" }

const withStorage = <A>(effect: Effect.Effect<A, unknown, StorageLayer.Storage>): Promise<A> => withDatabase(env.DATABASE_URL, effect)

beforeAll(async () => {
  expect((await runCli(["seed"], env)).code).toBe(0)
  await withStorage(
    Effect.gen(function* () {
      const flags = yield* Flags
      yield* flags.create("default", { key: "new-checkout", name: "New checkout", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
      yield* flags.replaceTargeting("default", "new-checkout", {
        environment: "staging",
        enabled: true,
        defaultVariationKey: "off",
        offVariationKey: "off",
        rules: [RULE]
      })
    })
  )
}, TIMEOUT)

const flag = () => withStorage(Effect.flatMap(Flags, (flags) => flags.get("default", "new-checkout")))

describe("flagport flags", () => {
  it("list shows each flag on or off per environment; get shows one", { timeout: TIMEOUT }, async () => {
    const listed = await runCli(["flags", "list"], env)
    expect(listed.code, listed.stderr).toBe(0)
    const [header, row] = listed.stdout.trim().split("\n").map((line) => line.split(/\s{2,}/))
    expect(header).toEqual(["KEY", "TYPE", "VERSION", "DEVELOPMENT", "STAGING", "PRODUCTION", "NAME"])
    expect(row).toEqual(["new-checkout", "boolean", "2", "off", "on", "off", "New checkout"])
    const json = await runCli(["flags", "list", "--json"], env)
    expect((JSON.parse(json.stdout) as { data: Array<{ key: string }> }).data.map((f) => f.key)).toEqual(["new-checkout"])

    const shown = await runCli(["flags", "get", "new-checkout"], env)
    expect(shown.code, shown.stderr).toBe(0)
    expect(keyLines(shown.stdout)).toMatchObject({ FLAG: "new-checkout", VERSION: "2", TYPE: "boolean" })
    expect(shown.stdout).toMatch(/^staging\s+on\s+off\s+off\s+beta: 1 condition\(s\) -> on$/m)

    const missing = await runCli(["flags", "get", "nope"], env)
    expect(missing.code).toBe(1)
    expect(missing.stderr.trim()).toBe(`error: Flag 'nope' not found in project 'default' of ${env.DATABASE_URL}`)
    const typo = await runCli(["flags", "get", "new-chekout"], env)
    expect(typo.stderr.trim()).toBe(`error: Flag 'new-chekout' not found in project 'default' of ${env.DATABASE_URL} (flagKey: did you mean 'new-checkout'?)`)
  })

  it("enable and disable change only `enabled`, as a new version audited as cli", { timeout: TIMEOUT }, async () => {
    const enabled = await runCli(["flags", "enable", "new-checkout", "--environment", "production"], env)
    expect(enabled.code, enabled.stderr).toBe(0)
    expect(keyLines(enabled.stdout)).toEqual({ FLAG: "new-checkout", ENVIRONMENT: "production", ENABLED: "true", VERSION: "3" })
    const disabled = await runCli(["flags", "disable", "new-checkout", "--environment", "staging"], env)
    expect(keyLines(disabled.stdout)).toMatchObject({ ENABLED: "false", VERSION: "4" })

    const now = await flag()
    expect(now.version).toBe(4)
    const staging = now.configs.find((c) => c.environmentKey === "staging")!
    expect(staging).toMatchObject({ enabled: false, defaultVariationKey: "off", rules: [RULE] })
    expect(now.configs.find((c) => c.environmentKey === "production")!.enabled).toBe(true)

    const audit = await withStorage(Effect.flatMap(Audit, (a) => a.list("default", {})))
    const targeting = audit.data.filter((e) => e.action === "targeting.updated")
    expect(targeting.slice(0, 2).map((e) => e.actor)).toEqual([{ type: "cli" }, { type: "cli" }])
  })

  it("honours versions: a stale --if-version is refused, the current one is accepted", { timeout: TIMEOUT }, async () => {
    const { version } = await flag()
    const stale = await runCli(["flags", "enable", "new-checkout", "--environment", "staging", "--if-version", String(version - 1)], env)
    expect(stale.code).toBe(1)
    expect(stale.stderr).toContain(`is at version ${version}`)
    expect((await flag()).version).toBe(version)
    const current = await runCli(["flags", "enable", "new-checkout", "--environment", "staging", "--if-version", String(version)], env)
    expect(current.code, current.stderr).toBe(0)
    expect(keyLines(current.stdout).VERSION).toBe(String(version + 1))
  })

  it("a flag already in the asked state is left alone; an unknown environment is an error", { timeout: TIMEOUT }, async () => {
    const { version } = await flag()
    const again = await runCli(["flags", "enable", "new-checkout", "--environment", "staging"], env)
    expect(again.code, again.stderr).toBe(0)
    expect(keyLines(again.stdout).VERSION).toBe(String(version))
    expect((await flag()).version).toBe(version)
    const unknown = await runCli(["flags", "disable", "new-checkout", "--environment", "qa"], env)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr.trim()).toBe(
      `error: Environment 'qa' not found in project 'default' of ${env.DATABASE_URL} (environment: the project's environments: development, staging, production)`
    )
    const typo = await runCli(["flags", "disable", "new-checkout", "--environment", "stagign"], env)
    expect(typo.stderr.trim()).toContain("(environment: did you mean 'staging'?; environment: the project's environments: development, staging, production)")
  })
})
