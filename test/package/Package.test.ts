/**
 * The published package, from a host's side: packed, installed into a scratch ESM app and a
 * scratch CommonJS app, type-checked with the compiler's defaults (skipLibCheck false, so every
 * shipped declaration file is checked) and run. And the root entry is the pure core: loading it
 * loads no @effect/* package (no HTTP platform, no SQL).
 */
import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ModuleKind, packTarball, runNode, scratchApp, scratchDirectory, typeCheck } from "./PackedPackage.js"

const TIMEOUT = 240_000

/** Every entry point, the root one used at run time, the others as types (their declarations are checked all the same). */
const program = `
import { ConfigSnapshot, Evaluate, Validation } from "flagport"
import type { makeHandlers } from "flagport/http"
import type { servicesLayer } from "flagport/server"
import type { fromDatabaseUrl } from "flagport/storage"
import type { layer } from "flagport/memory"
import type { createClient } from "flagport/client"
import type { FlagportClient } from "flagport/client/effect"

export type Entries = [typeof makeHandlers, typeof servicesLayer, typeof fromDatabaseUrl, typeof layer, typeof createClient, typeof FlagportClient]

const config: ConfigSnapshot.ConfigSnapshot = {
  environment: "production",
  flags: [{
    key: "new-checkout",
    type: "boolean",
    enabled: true,
    variations: [{ key: "on", value: true }, { key: "off", value: false }],
    defaultVariationKey: "off",
    offVariationKey: "off",
    rules: [{ id: "beta", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" }]
  }],
  segments: []
}
const compiled: Evaluate.CompiledSnapshot = Evaluate.compile(config)
const flag: Evaluate.CompiledFlag | undefined = compiled.flags.get("new-checkout")
const problems: ReadonlyArray<Validation.Problem> = []
console.log(JSON.stringify({
  beta: Evaluate.evaluate(compiled, "new-checkout", { key: "user-1", attributes: { plan: "beta" } }),
  other: Evaluate.evaluate(compiled, "new-checkout", { key: "user-2" }).value,
  compiledFlag: flag !== undefined,
  problems: problems.length
}))
`

const expectedOutput = {
  beta: { flagKey: "new-checkout", value: true, variationKey: "on", reason: { kind: "RULE_MATCH", ruleId: "beta", ruleIndex: 0 } },
  other: false,
  compiledFlag: true,
  problems: 0
}

/** Only what a host must choose (the module system); everything else, skipLibCheck included, is the compiler's default. */
const tsconfig = JSON.stringify({ compilerOptions: { module: "nodenext", strict: true, outDir: "out" }, files: ["main.ts"] })

/** Records every module URL Node resolves (ESM loader hook), into the file given at registration. */
const recordHook = `
import { appendFileSync } from "node:fs"
let log
export async function initialize(data) { log = data.log }
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context)
  appendFileSync(log, resolved.url + "\\n")
  return resolved
}
`
const registerHook = `
import { register } from "node:module"
register("./record-hook.mjs", { parentURL: import.meta.url, data: { log: process.env.RESOLVED_LOG } })
`

/** The packages in a list of module paths or URLs (the last node_modules segment of each). */
const packagesOf = (paths: ReadonlyArray<string>): Set<string> =>
  new Set(
    paths.flatMap((path) => {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(path)
      return match === null ? [] : [match[1]!]
    })
  )

let scratch: string
let tarball: string
const apps: Array<string> = []

beforeAll(async () => {
  scratch = scratchDirectory()
  tarball = await packTarball(scratch)
}, TIMEOUT)

afterAll(() => {
  for (const dir of [scratch, ...apps]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

const makeApp = (kind: ModuleKind, extra: Record<string, string> = {}) => {
  const app = scratchApp(tarball, kind, { "main.ts": program, "tsconfig.json": tsconfig, ...extra })
  apps.push(app)
  return app
}

// Concurrent: each test is mostly a child process (the compiler, node), so two share the two cores.
describe.concurrent("the packed package in a host app", () => {
  for (const kind of ["module", "commonjs"] as const) {
    it(`${kind}: type-checks with skipLibCheck false and runs`, { timeout: TIMEOUT }, async () => {
      const app = makeApp(kind)
      const compiled = await typeCheck(app)
      expect(compiled.output).toBe("")
      expect(compiled.code).toBe(0)
      const run = await runNode(app, ["out/main.js"])
      expect(run.code).toBe(0)
      expect(JSON.parse(run.output)).toEqual(expectedOutput)
    })
  }

  it("ESM: importing the root entry resolves no @effect/* package", { timeout: TIMEOUT }, async () => {
    const app = makeApp("module", { "record-hook.mjs": recordHook, "register.mjs": registerHook, "load.mjs": 'import "flagport"\n' })
    const log = join(app, "resolved.log")
    const run = await runNode(app, ["--import", "./register.mjs", "load.mjs"], { RESOLVED_LOG: log })
    expect(run.output).toBe("")
    const packages = packagesOf(readFileSync(log, "utf8").split("\n"))
    expect(packages).toContain("flagport")
    expect(packages).toContain("effect")
    expect([...packages].filter((name) => name.startsWith("@effect/"))).toEqual([])
  })

  it("CommonJS: requiring the root entry loads no @effect/* package", { timeout: TIMEOUT }, async () => {
    const app = makeApp("commonjs")
    const run = await runNode(app, ["-e", 'require("flagport"); process.stdout.write(JSON.stringify(Object.keys(require.cache)))'])
    expect(run.code).toBe(0)
    const packages = packagesOf(JSON.parse(run.output) as Array<string>)
    expect(packages).toContain("effect")
    expect([...packages].filter((name) => name.startsWith("@effect/"))).toEqual([])
  })
})
