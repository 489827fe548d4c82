/**
 * `flagport import flagd` through the real binary on a SQLite file: a refused flag writes nothing
 * and exits 1 with its reason; `--dry-run` writes nothing; `--skip-unsupported` imports the rest,
 * with the translated rules in the chosen environment (enabled there, disabled in the others) and
 * an audit entry per write as `cli`; a key the project already has is refused; YAML files read
 * as JSON ones.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { stringify } from "yaml"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { freshSqliteUrl, runCli } from "./Process.js"
import { withStorage as withDatabase } from "./Databases.js"

const TIMEOUT = 120_000
const env = { DATABASE_URL: freshSqliteUrl() }
const dir = mkdtempSync(join(tmpdir(), "flagport-flagd-"))

const FILE = {
  $evaluators: { staff: { in: ["@example.com", { var: "email" }] } },
  flags: {
    "new-banner": {
      state: "ENABLED",
      variants: { on: true, off: false },
      defaultVariant: "off",
      targeting: { if: [{ $ref: "staff" }, "on", "off"] }
    },
    "header-color": {
      state: "ENABLED",
      variants: { red: "#c00", blue: "#00c" },
      defaultVariant: "red",
      targeting: { fractional: [["red", 25], ["blue", 75]] }
    },
    "old-checkout": { state: "DISABLED", variants: { on: true, off: false }, defaultVariant: "off" }
  }
}

const write = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
const json = write("flags.flagd.json", JSON.stringify(FILE))

const withStorage = <A>(effect: Effect.Effect<A, unknown, StorageLayer.Storage>): Promise<A> => withDatabase(env.DATABASE_URL, effect)
const flagKeys = () => withStorage(Effect.map(Effect.flatMap(Flags, (flags) => flags.list("default")), (list) => list.map((f) => f.key)))

const rows = (stdout: string) => stdout.trim().split("\n").slice(1).map((line) => line.split(/\s{2,}/))

beforeAll(async () => {
  expect((await runCli(["seed"], env)).code).toBe(0)
}, TIMEOUT)

describe("flagport import flagd", () => {
  it("a refused flag: its reason per flag, nothing written, exit 1", { timeout: TIMEOUT }, async () => {
    const result = await runCli(["import", "flagd", json, "--environment", "staging"], env)
    expect(result.code).toBe(1)
    expect(rows(result.stdout)).toEqual([
      ["new-banner", "would import", "1 rule(s)"],
      ["header-color", "would import", "1 rule(s)"],
      ["old-checkout", "refused", expect.stringMatching(/^flags\.old-checkout\.state: a DISABLED flag answers the caller's default value/)]
    ])
    expect(result.stderr).toBe("error: 1 flag(s) refused, nothing imported; change them in the file, or pass --skip-unsupported to import the others\n")
    expect(await flagKeys()).toEqual([])
  })

  it("--dry-run writes nothing", { timeout: TIMEOUT }, async () => {
    const result = await runCli(["import", "flagd", json, "--environment", "staging", "--skip-unsupported", "--dry-run"], env)
    expect(result.code, result.stderr).toBe(0)
    expect(rows(result.stdout).map((row) => row.slice(0, 2))).toEqual([["new-banner", "would import"], ["header-color", "would import"], ["old-checkout", "skipped"]])
    expect(result.stderr).toBe("dry run: nothing written\n")
    expect(await flagKeys()).toEqual([])
  })

  it("--skip-unsupported imports the rest: variations, the rules in one environment, audited as cli", { timeout: TIMEOUT }, async () => {
    const result = await runCli(["import", "flagd", json, "--environment", "staging", "--skip-unsupported", "--json"], env)
    expect(result.code, result.stderr).toBe(0)
    const report = JSON.parse(result.stdout) as { written: boolean; flags: Array<{ key: string; result: string }> }
    expect(report.written).toBe(true)
    expect(report.flags.map((f) => [f.key, f.result])).toEqual([["new-banner", "imported"], ["header-color", "imported"], ["old-checkout", "skipped"]])
    const [banner, color, entries] = await withStorage(
      Effect.gen(function* () {
        const flags = yield* Flags
        const audit = yield* Audit
        return [yield* flags.get("default", "new-banner"), yield* flags.get("default", "header-color"), (yield* audit.list("default", {})).data] as const
      })
    )
    expect(banner.variations).toEqual([{ key: "on", value: true }, { key: "off", value: false }])
    const staging = banner.configs.find((c) => c.environmentKey === "staging")!
    expect(staging).toMatchObject({ enabled: true, defaultVariationKey: "off", offVariationKey: "off" })
    expect(staging.rules.map(({ id: _id, ...rule }) => rule)).toEqual([
      { conditions: [{ attribute: "email", operator: "contains", values: ["@example.com"] }], variationKey: "on" }
    ])
    expect(banner.configs.filter((c) => c.environmentKey !== "staging").every((c) => !c.enabled)).toBe(true)
    expect(color.configs.find((c) => c.environmentKey === "staging")!.rules[0]!.rollout).toEqual({
      bucketBy: "key",
      variations: [{ variationKey: "red", weight: 25000 }, { variationKey: "blue", weight: 75000 }]
    })
    const mine = entries.filter((e) => e.resource.key === "new-banner" || e.resource.key === "header-color")
    expect(mine.map((e) => [e.action, e.resource.key, e.actor.type]).sort()).toEqual([
      ["flag.created", "header-color", "cli"],
      ["flag.created", "new-banner", "cli"],
      ["targeting.updated", "header-color", "cli"],
      ["targeting.updated", "new-banner", "cli"]
    ])
  })

  it("a key the project already has is refused; YAML reads as JSON", { timeout: TIMEOUT }, async () => {
    const yaml = write("flags.flagd.yaml", stringify({ flags: { "new-banner": FILE.flags["new-banner"] }, $evaluators: FILE.$evaluators }))
    const result = await runCli(["import", "flagd", yaml, "--environment", "production"], env)
    expect(result.code).toBe(1)
    expect(rows(result.stdout)).toEqual([["new-banner", "refused", expect.stringContaining(`project "default" already has a flag "new-banner"`)]])
  })

  it("an unknown environment, and a file that is no flagd definition: one error line, exit 1", { timeout: TIMEOUT }, async () => {
    const unknown = await runCli(["import", "flagd", json, "--environment", "qa"], env)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toBe(`error: Environment 'qa' not found in project 'default' of ${env.DATABASE_URL}\n`)
    const bad = await runCli(["import", "flagd", write("bad.json", `{"flag": {}}`), "--environment", "staging"], env)
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/^error: Not a flagd flag definition file \(unknown top-level field "flag"/)
  })
})
