/**
 * What the HTTP benchmarks share to run their servers as shipped: the bench file bundled by
 * esbuild (as `npm start` runs the sources; through tsx, its loader and `keepNames` cost some 10%
 * per request: see bench/http.bench.ts), its children started from that bundle, each announcing
 * itself with one JSON line on stdout, and a request's answer captured to compare servers' bytes.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { basename, dirname, join } from "node:path"

export interface Scenario {
  readonly name: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers: Record<string, string>
  readonly body?: string
}

export interface Captured {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

/** Native addons and optional helpers stay in node_modules (as in bin/flagport.mjs's bundle). */
const EXTERNAL = ["better-sqlite3", "@node-rs/*", "pg-native", "bufferutil", "utf-8-validate", "esbuild", "fsevents", "autocannon"]

export interface Child {
  readonly child: ChildProcess
  /** The child's first line on stdout, parsed. */
  readonly info: Record<string, unknown>
}

/**
 * Children of the bench file `self`, run from its bundle (built once, beside it so that the
 * packages left external resolve from node_modules, removed when this process exits).
 */
export const bundledChildren = (self: string) => {
  let bundled: Promise<string> | undefined
  const bundle = (): Promise<string> =>
    bundled ??= (async () => {
      const esbuild = await import("esbuild")
      const outfile = join(dirname(self), `.${basename(self, ".ts")}-${process.pid}.mjs`)
      try {
        await esbuild.build({
          entryPoints: [self],
          outfile,
          bundle: true,
          platform: "node",
          format: "esm",
          target: "node20",
          logLevel: "error",
          external: EXTERNAL,
          banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" }
        })
      } finally {
        await esbuild.stop()
      }
      process.on("exit", () => rmSync(outfile, { force: true }))
      return outfile
    })()

  /**
   * Starts `self args...` from the bundle; resolves with its first stdout line. `env` replaces the
   * environment when given; `nodeArgs` go to node before the file (`--cpu-prof`, which
   * NODE_OPTIONS refuses).
   */
  const startChild = (args: ReadonlyArray<string>, env?: NodeJS.ProcessEnv, nodeArgs: ReadonlyArray<string> = []): Promise<Child> =>
    bundle().then((file) => new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [...nodeArgs, file, ...args], { stdio: ["ignore", "pipe", "inherit"], ...(env === undefined ? {} : { env }) })
      let buffer = ""
      child.stdout!.on("data", (chunk: Buffer) => {
        buffer += chunk.toString()
        const newline = buffer.indexOf("\n")
        if (newline >= 0) resolve({ child, info: JSON.parse(buffer.slice(0, newline)) as Record<string, unknown> })
      })
      child.on("exit", (code) => reject(new Error(`child exited with ${code}`)))
    }))

  return { startChild }
}

/** One answer of `scenario`, with the headers the benchmarks compare. */
export const capture = async (port: number, scenario: Scenario): Promise<Captured> => {
  const response = await fetch(`http://127.0.0.1:${port}${scenario.path}`, {
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body === undefined ? {} : { body: scenario.body })
  })
  const headers: Record<string, string> = {}
  for (const name of ["content-type", "etag", "vary"]) {
    const value = response.headers.get(name)
    if (value !== null) headers[name] = value
  }
  return { status: response.status, headers, body: await response.text() }
}
