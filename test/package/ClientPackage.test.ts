/**
 * `@flagport/client`, the SDK and the OpenFeature provider as a package of their own: packed with
 * `npm pack ./adapters/client` (its prepack builds it from the same sources as `flagport/client`)
 * and installed by npm into empty apps. The package brings nothing with it (no native build, nothing
 * of Effect or of the server), weighs under 1 MB installed, type-checks with the compiler's
 * defaults (skipLibCheck false) and runs against a real Flagport, as ESM and as CommonJS.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ROOT } from "../cli/Process.js"
import { type Flagport, startFlagport } from "../client/RealServer.js"
import { devDependency, installApp, npmPack, run, runNode, scratchDirectory, typeCheck } from "./PackedPackage.js"

const TIMEOUT = 240_000

/** Both written into the apps with the server's address and key (the apps have no @types/node for `process`). */
const sdkProgram = (url: string, key: string) => `
import { type Client, createClient, type Detail } from "@flagport/client"

const flags: Client = await createClient({ url: ${JSON.stringify(url)}, key: ${JSON.stringify(key)}, environment: "production" })
const detail: Detail<boolean> = flags.detail("new-checkout", { key: "u1", attributes: { plan: "beta" } }, false)
console.log(JSON.stringify({ status: flags.status, beta: flags.boolean("new-checkout", { key: "u1", attributes: { plan: "beta" } }, false), other: flags.boolean("new-checkout", { key: "u1" }, true), reason: detail.reason.kind }))
await flags.close()
`

const providerProgram = (url: string, key: string) => `
import { OpenFeature } from "@openfeature/server-sdk"
import { FlagportProvider } from "@flagport/client/openfeature"

await OpenFeature.setProviderAndWait(new FlagportProvider({ url: ${JSON.stringify(url)}, key: ${JSON.stringify(key)}, environment: "production" }))
const client = OpenFeature.getClient()
console.log(JSON.stringify({ beta: await client.getBooleanValue("new-checkout", false, { targetingKey: "u1", plan: "beta" }), other: await client.getBooleanValue("new-checkout", true, { targetingKey: "u1" }) }))
await OpenFeature.close()
`

/** What a host must choose (the module system); everything else, skipLibCheck included, is the compiler's default. */
const tsconfig = JSON.stringify({ compilerOptions: { module: "nodenext", strict: true, outDir: "out" }, files: ["main.ts"] })

/** The packages an app's node_modules holds (scoped ones by their full name). */
const installedPackages = (app: string): ReadonlyArray<string> =>
  readdirSync(join(app, "node_modules"))
    .filter((name) => !name.startsWith("."))
    .flatMap((name) => (name.startsWith("@") ? readdirSync(join(app, "node_modules", name)).map((inner) => `${name}/${inner}`) : [name]))
    .sort()

let server: Flagport
let scratch: string
let tarball: string
const apps: Array<string> = []

beforeAll(async () => {
  server = await startFlagport()
  await server.createFlag("new-checkout", "boolean", [{ key: "on", value: true }, { key: "off", value: false }])
  await server.target("new-checkout", {
    enabled: true,
    defaultVariationKey: "off",
    offVariationKey: "off",
    rules: [{ id: "beta", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" }]
  })
  scratch = scratchDirectory()
  // As documented: from the repository's root.
  tarball = (await npmPack(ROOT, scratch, "./adapters/client")).tarball
}, TIMEOUT)

afterAll(async () => {
  for (const dir of [scratch, ...apps]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  await server?.close()
})

const app = async (packages: ReadonlyArray<string>, kind: "module" | "commonjs" = "module"): Promise<string> => {
  const dir = await installApp(packages, kind)
  apps.push(dir)
  return dir
}

const expected = { beta: true, other: false }

describe("npm pack ./adapters/client, installed into an empty app", () => {
  it("is @flagport/client at the kit's version, with no dependencies and no install script", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "adapters/client/package.json"), "utf8")) as Record<string, unknown>
    const kit = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, unknown>
    expect(manifest.name).toBe("@flagport/client")
    expect(manifest.version).toBe(kit.version)
    expect(manifest.dependencies).toBeUndefined()
    expect(Object.keys(manifest.scripts as object)).toEqual(["prepack"])
    expect(manifest.peerDependenciesMeta).toEqual({ "@openfeature/server-sdk": { optional: true } })
  })

  it("the SDK alone: nothing else installed, under 1 MB on disk, type-checks and runs", { timeout: TIMEOUT }, async () => {
    const dir = await app([tarball])
    expect(installedPackages(dir)).toEqual(["@flagport/client"])
    const kilobytes = Number((await run("du", ["-sk", "node_modules"], dir)).stdout.split("\t")[0])
    expect(kilobytes).toBeGreaterThan(0)
    expect(kilobytes).toBeLessThan(1024)
    writeFileSync(join(dir, "main.ts"), sdkProgram(server.url, server.clientKey))
    writeFileSync(join(dir, "tsconfig.json"), tsconfig)
    const compiled = await typeCheck(dir)
    expect(compiled.output).toBe("")
    const ran = await runNode(dir, ["out/main.js"])
    expect(ran.code, ran.output).toBe(0)
    expect(JSON.parse(ran.stdout)).toEqual({ status: "ready", ...expected, reason: "RULE_MATCH" })
  })

  it("the OpenFeature provider with the OpenFeature SDK: type-checks and runs", { timeout: TIMEOUT }, async () => {
    // The OpenFeature SDK's own declarations need Node's (node:events), as any Node app has them.
    const dir = await app([tarball, devDependency("@openfeature/server-sdk"), devDependency("@types/node")])
    expect(installedPackages(dir)).toEqual(["@flagport/client", "@openfeature/core", "@openfeature/server-sdk", "@types/node", "undici-types"])
    writeFileSync(join(dir, "main.ts"), providerProgram(server.url, server.clientKey))
    writeFileSync(join(dir, "tsconfig.json"), tsconfig)
    const compiled = await typeCheck(dir)
    expect(compiled.output).toBe("")
    const ran = await runNode(dir, ["out/main.js"])
    expect(ran.code, ran.output).toBe(0)
    expect(JSON.parse(ran.stdout)).toEqual(expected)
  })

  it("CommonJS: require() of both entries works", { timeout: TIMEOUT }, async () => {
    const dir = await app([tarball, devDependency("@openfeature/server-sdk")], "commonjs")
    const script = `
      const { createClient } = require("@flagport/client")
      const { FlagportProvider } = require("@flagport/client/openfeature")
      const { OpenFeature } = require("@openfeature/server-sdk")
      const options = { url: ${JSON.stringify(server.url)}, key: ${JSON.stringify(server.clientKey)}, environment: "production" }
      ;(async () => {
        const flags = await createClient(options)
        await OpenFeature.setProviderAndWait(new FlagportProvider(options))
        const sdk = flags.boolean("new-checkout", { key: "u1", attributes: { plan: "beta" } }, false)
        const provider = await OpenFeature.getClient().getBooleanValue("new-checkout", true, { targetingKey: "u1" })
        await flags.close()
        await OpenFeature.close()
        console.log(JSON.stringify({ sdk, provider }))
      })()
    `
    const ran = await runNode(dir, ["-e", script])
    expect(ran.code, ran.output).toBe(0)
    expect(JSON.parse(ran.stdout)).toEqual({ sdk: true, provider: false })
  })
})
