/**
 * The SDK holding a 1,000,000-key segment list (run by hand, not a test): how much more memory
 * does it use, and how long does a one-key change take to reach its next evaluation? Targets: at
 * most 64 MB more; within a second, as a change of a few dozen bytes.
 *
 *   node --expose-gc --import tsx bench/sdk-key-list.bench.ts     # KEYS=1000000 CHANGES=20
 *
 * A real `flagport serve --init` (bin/flagport.mjs) in a child process on a fresh SQLite file, so
 * the SDK is alone in this process. The keys (`user-0000000`...) are uploaded, a flag serves `on`
 * to the segment; then, after a garbage collection, the heap and array buffers are read before
 * `createClient` and again once it is ready (and again after a collection), and the difference is
 * what the SDK holds for the list. Then CHANGES times: one key added and one removed by `PATCH`
 * (the list stays at its million, the most a list may hold), and the time from
 * its answer to the first evaluation in this process that sees it (polled every millisecond), with
 * the size of the list body the SDK downloaded for it.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { cpus, loadavg, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { createClient } from "../adapters/client/index.js"
import { freePort } from "./free-port.js"

const HERE = fileURLToPath(new URL("..", import.meta.url))
const KEYS = Number(process.env["KEYS"] ?? 1_000_000)
const CHANGES = Number(process.env["CHANGES"] ?? 20)
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error("run with node --expose-gc")

const serve = async (databaseUrl: string) => {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, HOST: "127.0.0.1", PORT: String(port), NO_COLOR: "1", FLAGPORT_LOG_LEVEL: "warn" }
  delete env["FLAGPORT_PUBLIC_URL"]
  const child: ChildProcess = spawn(process.execPath, [join(HERE, "bin/flagport.mjs"), "serve", "--init"], { cwd: HERE, env, stdio: ["ignore", "pipe", "inherit"] })
  let stdout = ""
  const serverKey = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready within 120 s:\n${stdout}`)), 120_000)
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString()
      const key = /^SERVER_KEY=(\S+)$/m.exec(stdout)?.[1]
      if (key !== undefined && /^SETUP_URL=/m.test(stdout)) {
        clearTimeout(timer)
        resolve(key)
      }
    })
    child.once("exit", (code) => reject(new Error(`the server exited (${code}):\n${stdout}`)))
  })
  return { child, url: `http://127.0.0.1:${port}`, serverKey }
}

const memory = () => {
  gc()
  gc()
  const { arrayBuffers, heapUsed } = process.memoryUsage()
  return heapUsed + arrayBuffers
}
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`
const quantile = (values: ReadonlyArray<number>, q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)]!

console.log(`${new Date().toISOString()}, ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}, Node ${process.version}`)
const dir = mkdtempSync(join(tmpdir(), "flagport-sdk-list-bench-"))
const served = await serve(`sqlite:${join(dir, "flagport.db")}`)
try {
  const { serverKey, url } = served
  const call = async (method: string, path: string, body: string, contentType = "application/json") => {
    const response = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${serverKey}`, "content-type": contentType }, body })
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  }
  await call("POST", "/v1/projects/default/segments", JSON.stringify({ key: "big", name: "Big", conditions: [] }))
  let text = ""
  for (let i = 0; i < KEYS; i++) text += `user-${String(i).padStart(7, "0")}\n`
  await call("PUT", "/v1/projects/default/segments/big/keys/included", text, "text/plain")
  text = ""
  const flag = { key: "big", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
  await call("POST", "/v1/projects/default/flags", JSON.stringify(flag))
  const rules = [{ conditions: [{ operator: "inSegment", values: ["big"] }], variationKey: "on" }]
  await call("PUT", "/v1/projects/default/flags/big/targeting", JSON.stringify({ environment: "development", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules }))

  const listBodies: Array<number> = []
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    if (!String(input).includes("/v1/config/segments/")) return response
    const bytes = new Uint8Array(await response.arrayBuffer())
    listBodies.push(bytes.length)
    return new Response(bytes, { status: response.status, headers: response.headers })
  }
  const before = memory()
  const started = performance.now()
  const sdk = await createClient({ url, key: serverKey, projectId: "default", environment: "development", fetch: recording, startTimeoutMs: 120_000, requestTimeoutMs: 120_000, sendInsights: false })
  const ready = performance.now() - started
  if (!sdk.boolean("big", { key: "user-0000001" }, false) || sdk.boolean("big", { key: "someone" }, true)) throw new Error("the SDK does not evaluate the list")
  const held = memory() - before
  console.log(`SDK with ${KEYS.toLocaleString("en-US")} keys: ready in ${(ready / 1000).toFixed(2)} s (whole list ${mb(listBodies[0] ?? 0)}), holds ${mb(held)} more after a collection`)

  await new Promise((r) => setTimeout(r, 500)) // the stream is connected
  const took: Array<number> = []
  const sizes: Array<number> = []
  for (let i = 0; i < CHANGES; i++) {
    const key = `newcomer-${i}`
    const bodies = listBodies.length
    await call("PATCH", "/v1/projects/default/segments/big/keys/included", JSON.stringify({ add: [key], remove: [`user-${String(i).padStart(7, "0")}`] }))
    const patched = performance.now()
    while (!sdk.boolean("big", { key }, false)) await new Promise((r) => setTimeout(r, 1))
    took.push(performance.now() - patched)
    sizes.push(...listBodies.slice(bodies))
  }
  console.log(
    `one-key change to the SDK's next evaluation, ${CHANGES} changes: p50 ${quantile(took, 0.5).toFixed(0)} ms, p90 ${quantile(took, 0.9).toFixed(0)} ms, max ${Math.max(...took).toFixed(0)} ms; ` +
      `list bodies downloaded for them: ${sizes.length}, ${Math.min(...sizes)}-${Math.max(...sizes)} bytes`
  )
  console.log(`SDK memory after the changes: ${mb(memory() - before)} more than before createClient`)
  await sdk.close()
} finally {
  served.child.kill("SIGTERM")
  await new Promise((resolve) => served.child.once("exit", resolve))
  rmSync(dir, { recursive: true, force: true })
}
console.log(`load after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`)
