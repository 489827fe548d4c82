/**
 * The repository packed by `npm pack` and installed by npm into an empty app, as a user does:
 * from there the SDK, the OpenFeature provider, `flagport/http` mounted in node:http on SQLite, the
 * dashboard and `npx flagport` all work, and the README's TypeScript snippets type-check in the
 * project the README describes (`npm init -y`, type module, `tsc --init --types node`).
 *
 * The pack runs the package's prepack, which builds dist/ in the copy of the checkout unless dist/
 * was built from these very sources (after CI's `npm run build` it was, and nothing is rebuilt;
 * BuildStamp.test.ts checks that decision).
 *
 * Cost: npm installs the package's dependencies from its cache (`--prefer-offline`: the checkout's
 * own install put them there). Its install scripts are skipped, since better-sqlite3 would compile
 * for minutes (no prebuilt binary is reachable here); its compiled addon is taken from this
 * checkout instead, the same version built on the same machine (see `sqliteAddonFromCheckout`).
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ROOT } from "../cli/Process.js"
import { devDependency, installApp, packTarball, run, type Run, runNode, scratchDirectory } from "./PackedPackage.js"

const TIMEOUT = 240_000

/** The README's node:http mount, then the SDK and the provider against it: what an app does on its first day. */
const main = `
import http from "node:http"
import { OpenFeature } from "@openfeature/server-sdk"
import { createClient } from "flagport/client"
import { makeHandlers } from "flagport/http"
import { FlagportProvider } from "flagport/openfeature"
import { servicesLayer } from "flagport/server"
import { fromDatabaseUrl } from "flagport/storage"

const flagport = await makeHandlers({ prefix: "/flags", services: servicesLayer(fromDatabaseUrl(process.env.DATABASE_URL)) })
const server = http.createServer((req, res) => (req.url?.startsWith("/flags") ? flagport.node(req, res) : res.writeHead(404).end("the host app")))
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
const origin = \`http://127.0.0.1:\${server.address().port}\`
const url = \`\${origin}/flags\`

const manage = async (method, path, body) => {
  const response = await fetch(url + path, { method, headers: { authorization: \`Bearer \${process.env.SERVER_KEY}\`, "content-type": "application/json" }, body: JSON.stringify(body) })
  if (!response.ok) throw new Error(\`\${method} \${path}: \${response.status} \${await response.text()}\`)
}
await manage("POST", "/v1/projects/default/flags", { key: "new-checkout", name: "New checkout", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
await manage("PUT", "/v1/projects/default/flags/new-checkout/targeting", {
  environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off",
  rules: [{ name: "Beta", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" }]
})

const key = process.env.CLIENT_KEY
const flags = await createClient({ url, key, environment: "production" })
await OpenFeature.setProviderAndWait(new FlagportProvider({ url, key, environment: "production" }))
const openFeature = OpenFeature.getClient()
const result = {
  host: (await fetch(\`\${origin}/elsewhere\`)).status,
  dashboard: (await fetch(\`\${url}/ui/\`)).status,
  sdk: { status: flags.status, beta: flags.boolean("new-checkout", { key: "u1", attributes: { plan: "beta" } }, false), other: flags.boolean("new-checkout", { key: "u1" }, true) },
  provider: {
    beta: await openFeature.getBooleanValue("new-checkout", false, { targetingKey: "u1", plan: "beta" }),
    other: await openFeature.getBooleanValue("new-checkout", true, { targetingKey: "u1" })
  }
}
await flags.close()
await OpenFeature.close()
flagport.closeStreams()
server.closeAllConnections()
await new Promise((resolve) => server.close(resolve))
await flagport.dispose()
console.log(JSON.stringify(result))
`

/**
 * Tracing on in the installed app, as docs/operations/operating.md tells a host: a traced evaluation's span is
 * made on the lane's worker thread (a file of the build, resolved from the installed package) and
 * reaches an OTLP collector, flushed when the handlers are disposed.
 */
const traced = `
import http from "node:http"
import { Layer } from "effect"
import { makeHandlers, tracingLayerConfig } from "flagport/http"
import { servicesLayer } from "flagport/server"
import { fromDatabaseUrl } from "flagport/storage"

const received = []
const collector = http.createServer((req, res) => {
  const chunks = []
  req.on("data", (chunk) => chunks.push(chunk))
  req.on("end", () => { received.push(Buffer.concat(chunks)); res.writeHead(200).end() })
})
await new Promise((resolve) => collector.listen(0, "127.0.0.1", resolve))
process.env.OTEL_EXPORTER_OTLP_ENDPOINT = \`http://127.0.0.1:\${collector.address().port}\`
process.env.OTEL_BSP_SCHEDULE_DELAY = "100"

const flagport = await makeHandlers({ services: servicesLayer(fromDatabaseUrl(process.env.DATABASE_URL)).pipe(Layer.provideMerge(tracingLayerConfig)) })
const server = http.createServer((req, res) => flagport.node(req, res))
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
const answer = await fetch(\`http://127.0.0.1:\${server.address().port}/v1/evaluate\`, {
  method: "POST",
  headers: { authorization: \`Bearer \${process.env.CLIENT_KEY}\`, "content-type": "application/json", traceparent: \`00-\${traceId}-00f067aa0ba902b7-01\` },
  body: JSON.stringify({ environment: "production", context: { key: "u1" } })
})
server.closeAllConnections()
await new Promise((resolve) => server.close(resolve))
await flagport.dispose()
const exported = Buffer.concat(received)
console.log(JSON.stringify({
  status: answer.status,
  span: exported.includes("POST /v1/evaluate"),
  trace: exported.includes(Buffer.from(traceId, "hex"))
}))
collector.close()
`

const versionOf = (dir: string): string => (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version

/**
 * better-sqlite3's addon, compiled by this checkout's install, copied into the app: what its
 * skipped install script would have built, when the versions are the same; otherwise npm builds it.
 */
const sqliteAddonFromCheckout = async (app: string): Promise<void> => {
  const ours = join(ROOT, "node_modules/better-sqlite3")
  const theirs = join(app, "node_modules/better-sqlite3")
  if (versionOf(ours) !== versionOf(theirs)) {
    const rebuilt = await run("npm", ["rebuild", "better-sqlite3"], app)
    if (rebuilt.code !== 0) throw new Error(`npm rebuild better-sqlite3 failed:\n${rebuilt.output}`)
    return
  }
  mkdirSync(join(theirs, "build/Release"), { recursive: true })
  copyFileSync(join(ours, "build/Release/better_sqlite3.node"), join(theirs, "build/Release/better_sqlite3.node"))
}

let scratch: string
let app: string
let packed: ReadonlyArray<string>
// As a user types it. `npm_config_yes=false` (npx's --no, which would also take the arguments as
// its own) keeps npx from fetching a package of that name from the registry if the app had none.
const npx = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Run> =>
  run("npx", ["flagport", ...args], app, { NO_COLOR: "1", npm_config_yes: "false", ...env })

beforeAll(async () => {
  scratch = scratchDirectory()
  const tarball = await packTarball(scratch)
  packed = (await run("tar", ["-tzf", tarball], scratch)).stdout.split("\n").filter((line) => line !== "")
  const forReadme = ["@openfeature/ofrep-provider", "@types/node", "typescript"].map(devDependency)
  app = await installApp([tarball, devDependency("@openfeature/server-sdk"), ...forReadme], "module", { ignoreScripts: true })
  await sqliteAddonFromCheckout(app)
}, TIMEOUT)

afterAll(() => {
  for (const dir of [scratch, app]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

describe("npm pack, then npm install into an empty app", () => {
  it("the tarball holds the build: every entry point, the CLI and the dashboard", () => {
    for (const file of ["index.js", "index.cjs", "index.d.ts", "client.js", "openfeature.js", "http.js", "server.js", "storage.js", "cli.js", "ui/index.html", "ui/app.js"]) {
      expect(packed).toContain(`package/dist/${file}`)
    }
    expect(packed).toContain("package/bin/flagport.mjs")
    expect(packed.filter((path) => !/^package\/(dist|bin)\/|^package\/(package\.json|README\.md|LICENSE)$/.test(path))).toEqual([])
  })

  it("npx flagport --help runs from the app", { timeout: 60_000 }, async () => {
    const help = await npx(["--help"])
    expect(help.output).not.toMatch(/run `npm run build`|cannot start/)
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("serve")
  })

  it("flagport/http mounted in node:http, the SDK and the OpenFeature provider, on a database made by npx flagport seed", { timeout: 120_000 }, async () => {
    const databaseUrl = `sqlite:${join(app, "data/flagport.db")}`
    const seeded = await npx(["seed"], { DATABASE_URL: databaseUrl })
    expect(seeded.code, seeded.output).toBe(0)
    const keys = Object.fromEntries([...seeded.stdout.matchAll(/^([A-Z_]+)=(.+)$/gm)].map((match) => [match[1], match[2]]))
    writeFileSync(join(app, "main.mjs"), main)
    const ran = await runNode(app, ["main.mjs"], { DATABASE_URL: databaseUrl, SERVER_KEY: keys.SERVER_KEY!, CLIENT_KEY: keys.CLIENT_KEY! })
    expect(ran.code, ran.output).toBe(0)
    expect(JSON.parse(ran.stdout.trim().split("\n").pop()!)).toEqual({
      host: 404,
      dashboard: 200,
      sdk: { status: "ready", beta: true, other: false },
      provider: { beta: true, other: false }
    })
  })

  it("with tracing on, a traced evaluation's span reaches an OTLP collector from the installed package", { timeout: 120_000 }, async () => {
    const databaseUrl = `sqlite:${join(app, "data/traced.db")}`
    const seeded = await npx(["seed"], { DATABASE_URL: databaseUrl })
    expect(seeded.code, seeded.output).toBe(0)
    const clientKey = /^CLIENT_KEY=(.+)$/m.exec(seeded.stdout)?.[1]
    writeFileSync(join(app, "traced.mjs"), traced)
    const ran = await runNode(app, ["traced.mjs"], { DATABASE_URL: databaseUrl, CLIENT_KEY: clientKey! })
    expect(ran.code, ran.output).toBe(0)
    expect(JSON.parse(ran.stdout.trim().split("\n").pop()!)).toEqual({ status: 200, span: true, trace: true })
  })

  it("the README's TypeScript snippets type-check in the project the README describes", { timeout: 120_000 }, async () => {
    const snippets = [...readFileSync(join(ROOT, "README.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!)
    expect(snippets.length).toBeGreaterThanOrEqual(5)
    const dir = join(app, "readme")
    mkdirSync(dir)
    const tsc = join(app, "node_modules/typescript/bin/tsc")
    expect((await runNode(dir, [tsc, "--init", "--types", "node"])).code).toBe(0)
    snippets.forEach((snippet, i) => writeFileSync(join(dir, `snippet-${i + 1}.ts`), snippet))
    const checked = await runNode(dir, [tsc, "--noEmit", "-p", "."])
    expect(checked.output).toBe("")
    expect(checked.code).toBe(0)
  })
})
