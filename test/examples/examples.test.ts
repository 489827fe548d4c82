/**
 * Runs every example for real: each server example as its own process (`node --import tsx
 * examples/<name>.ts`, as a reader would), against a SQLite database seeded by the CLI, then
 * drives it over HTTP from flag creation to an evaluated flag; the in-process example as a script
 * and through its exported program. The examples import the package's entry points
 * (`flagport/http`, ...) as a user's app would; in their processes those resolve to the build
 * (dist/, package self-reference), so `npm run build` must have run.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { program } from "../../examples/evaluate-in-process.js"
import { childEnv, freePort, freshSqliteUrl, ROOT, runCli } from "../cli/Process.js"

const TIMEOUT = 180_000

interface Example {
  readonly child: ChildProcess
  readonly output: () => string
  readonly exited: Promise<number | string | null>
}

const running: Array<Example> = []
afterEach(() => {
  for (const example of running.splice(0)) example.child.kill("SIGKILL")
})

/** Starts `examples/<file>` and waits until `readyUrl` answers. */
const runExample = async (file: string, env: Record<string, string>, readyUrl?: string): Promise<Example> => {
  if (!existsSync(join(ROOT, "dist", "http.js"))) throw new Error("the examples import the built package: run npm run build first")
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "examples", file)], {
    cwd: ROOT,
    // Without the root tsconfig's paths (sources, for type-checking): `flagport/...` is the build.
    env: childEnv({ TSX_TSCONFIG_PATH: join(ROOT, "test", "examples", "tsconfig.published.json"), ...env }),
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | string | null>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)))
  let ended = false
  void exited.then(() => (ended = true))
  const example = { child, output: () => output, exited }
  running.push(example)
  if (readyUrl === undefined) return example
  const deadline = Date.now() + 90_000
  for (;;) {
    if (ended) throw new Error(`${file} exited early:\n${output}`)
    if (Date.now() > deadline) throw new Error(`${file} did not answer at ${readyUrl}:\n${output}`)
    try {
      if ((await fetch(readyUrl)).ok) return example
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** `npx flagport seed --json` on the database: the keys a reader would copy from the terminal. */
const seed = async (databaseUrl: string) => {
  const result = await runCli(["seed", "--json"], { DATABASE_URL: databaseUrl })
  expect(result.code).toBe(0)
  return JSON.parse(result.stdout) as { serverKey: string; clientKey: string }
}

/** From an empty project to an evaluated flag, through the API at `base` (prefix included). */
const createAndEvaluate = async (base: string, keys: { serverKey: string; clientKey: string }) => {
  const asServer = { authorization: `Bearer ${keys.serverKey}`, "content-type": "application/json" }
  const created = await fetch(`${base}/v1/projects/default/flags`, {
    method: "POST",
    headers: asServer,
    body: JSON.stringify({
      key: "banner-color",
      name: "Banner colour",
      type: "string",
      variations: [
        { key: "blue", value: "blue" },
        { key: "red", value: "red" }
      ]
    })
  })
  expect(created.status).toBe(201)
  const targeted = await fetch(`${base}/v1/projects/default/flags/banner-color/targeting`, {
    method: "PUT",
    headers: asServer,
    body: JSON.stringify({
      environment: "production",
      enabled: true,
      defaultVariationKey: "red",
      offVariationKey: "blue",
      rules: [{ id: "pro", conditions: [{ attribute: "plan", operator: "in", values: ["pro"] }], variationKey: "blue" }]
    })
  })
  expect(targeted.status).toBe(200)

  const asClient = { authorization: `Bearer ${keys.clientKey}` }
  const pro = await fetch(
    `${base}/v1/flags/banner-color/eval?environment=production&key=user-1&attributes=${encodeURIComponent(JSON.stringify({ plan: "pro" }))}`,
    { headers: asClient }
  )
  expect(pro.status).toBe(200)
  expect(await pro.json()).toEqual({
    flagKey: "banner-color",
    value: "blue",
    variationKey: "blue",
    reason: { kind: "RULE_MATCH", ruleId: "pro", ruleIndex: 0 }
  })
  const free = await fetch(`${base}/v1/flags/banner-color/eval?environment=production&key=user-2`, { headers: asClient })
  expect(await free.json()).toEqual({ flagKey: "banner-color", value: "red", variationKey: "red", reason: { kind: "FALLTHROUGH" } })
}

describe("examples", () => {
  it("standalone-server.ts serves the API at the root and stops on SIGTERM", { timeout: TIMEOUT }, async () => {
    const databaseUrl = freshSqliteUrl()
    const keys = await seed(databaseUrl)
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const example = await runExample(
      "standalone-server.ts",
      { DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1" },
      `${base}/health`
    )
    await createAndEvaluate(base, keys)
    example.child.kill("SIGTERM")
    expect(await example.exited).toBe(0)
  })

  for (const file of ["mount-node-http.ts", "mount-express.ts", "mount-fastify.ts", "mount-hono.ts"]) {
    it(`${file} serves the host's routes and Flagport under /flags`, { timeout: TIMEOUT }, async () => {
      const databaseUrl = freshSqliteUrl()
      const keys = await seed(databaseUrl)
      const port = await freePort()
      const host = `http://127.0.0.1:${port}`
      const example = await runExample(file, { DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1" }, `${host}/flags/health`)

      const home = await fetch(`${host}/`)
      expect(home.status).toBe(200)
      expect(await home.text()).toMatch(/^Hello from the/)
      // The API is only under the prefix: the same path without it is the host's business.
      const outside = await fetch(`${host}/v1/projects`, { headers: { authorization: `Bearer ${keys.serverKey}` } })
      expect(await outside.text()).not.toContain('"data"')
      await createAndEvaluate(`${host}/flags`, keys)
      const openApi = (await (await fetch(`${host}/flags/openapi.json`)).json()) as { servers?: Array<{ url: string }> }
      expect(openApi.servers?.map((server) => server.url)).toContain("/flags")
      expect((await fetch(`${host}/flags/docs`)).status).toBe(200)
      // The prefix leads to the dashboard, as `/` does standalone; the answers are Flagport's, with its headers.
      for (const path of ["/flags/", "/flags"]) {
        const root = await fetch(`${host}${path}`, { redirect: "manual" })
        expect(root.status, path).toBe(302)
        expect(root.headers.get("location"), path).toBe("/flags/ui/")
      }
      const dashboard = await fetch(`${host}/flags/ui/`)
      expect(dashboard.status).toBe(200)
      expect(dashboard.headers.get("x-frame-options")).toBe("DENY")
      expect((await fetch(`${host}/flags/v1/projects`)).headers.get("x-content-type-options")).toBe("nosniff")

      if (file !== "mount-node-http.ts") {
        // The host's own body parser still works after the mount.
        const echo = await fetch(`${host}/echo`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ hello: "world" })
        })
        expect(await echo.json()).toEqual({ received: { hello: "world" } })
      }
      example.child.kill("SIGTERM")
      expect(await example.exited).toBe(0)
    })
  }

  it("sdk-client.ts and openfeature-provider.ts evaluate a server's flags in process", { timeout: TIMEOUT }, async () => {
    const databaseUrl = freshSqliteUrl()
    const keys = await seed(databaseUrl)
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const server = await runExample("standalone-server.ts", { DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1" }, `${base}/health`)
    await createAndEvaluate(base, keys)
    const lastLine = (example: Example) => JSON.parse(example.output().trim().split("\n").at(-1)!) as Record<string, unknown>

    const sdk = await runExample("sdk-client.ts", { FLAGPORT_URL: base, FLAGPORT_KEY: keys.clientKey })
    expect(await sdk.exited).toBe(0)
    expect(lastLine(sdk)).toMatchObject({
      status: "ready",
      pro: "blue",
      free: { flagKey: "banner-color", value: "red", variationKey: "red", reason: { kind: "FALLTHROUGH" } }
    })

    const openFeature = await runExample("openfeature-provider.ts", { FLAGPORT_URL: base, FLAGPORT_KEY: keys.serverKey, FLAGPORT_PROJECT: "default" })
    expect(await openFeature.exited).toBe(0)
    expect(lastLine(openFeature)).toMatchObject({
      pro: { flagKey: "banner-color", value: "blue", variant: "blue", reason: "TARGETING_MATCH", flagMetadata: { ruleId: "pro", ruleIndex: 0 } },
      anonymous: { value: "red", variant: "red", reason: "DEFAULT" }
    })
    server.child.kill("SIGTERM")
    expect(await server.exited).toBe(0)
  })

  it("evaluate-in-process.ts evaluates with the memory adapter and no HTTP", { timeout: TIMEOUT }, async () => {
    const results = await Effect.runPromise(program)
    expect(results.german).toEqual({
      flagKey: "new-checkout",
      value: true,
      variationKey: "on",
      reason: { kind: "RULE_MATCH", ruleId: "germany", ruleIndex: 0 }
    })
    // Everyone else falls into the 50% rollout (rule 1), deterministically, and both halves occur.
    expect(results.others.map((result) => result.reason)).toEqual(results.others.map(() => ({ kind: "RULE_MATCH", ruleId: "half", ruleIndex: 1 })))
    expect(new Set(results.others.map((result) => result.value))).toEqual(new Set([true, false]))
    expect((await Effect.runPromise(program)).others).toEqual(results.others)
    expect(results.unknown.reason.kind).toBe("ERROR")
    expect(results.unknown.value).toBeNull()

    // And as a script, printing the same results.
    const example = await runExample("evaluate-in-process.ts", {})
    expect(await example.exited).toBe(0)
    expect(JSON.parse(example.output().slice(example.output().indexOf("{")))).toEqual(results)
  })
})
