/**
 * The package as a user gets it: `npm pack`ed, then unpacked into the node_modules of a scratch
 * host app in a temporary directory. No network: the package's own dependencies are symlinks to
 * this checkout's node_modules (installing them from the registry would download and compile
 * better-sqlite3), which is what npm would install from the same lock file.
 */
import { execFile, execFileSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { ROOT } from "../cli/Process.js"

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  readonly name: string
  readonly files: ReadonlyArray<string>
  readonly dependencies: Record<string, string>
}

export interface Run {
  readonly code: number
  readonly stdout: string
  /** stdout and stderr. */
  readonly output: string
}

/** Runs a command to completion without blocking (a long synchronous child would stall the test worker). */
const run = (command: string, args: ReadonlyArray<string>, cwd: string, env: Record<string, string> = {}): Promise<Run> =>
  new Promise((resolve) =>
    execFile(command, args, { cwd, encoding: "utf8", env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, output: `${stdout}${stderr}` })
    )
  )

/** Runs `node args...` in `cwd`; resolves with the exit code and output. */
export const runNode = (cwd: string, args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Run> =>
  run(process.execPath, args, cwd, env)

const newestMtime = (path: string): number => {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))))
}

const oldestMtime = (dir: string): number => Math.min(...readdirSync(dir).map((name) => statSync(join(dir, name)).mtimeMs))

/**
 * A dist/ built from the current sources: the checkout's own when it is newer than every input of
 * the build (CI runs `npm run build` before `npm test`), otherwise a fresh build into `scratch`,
 * so that a stale dist/ on a developer's machine never decides the result.
 */
const currentDist = async (scratch: string): Promise<string> => {
  const dist = join(ROOT, "dist")
  const inputs = ["src", "adapters", "tsup.config.ts", "tsconfig.json", "package.json"].map((path) => newestMtime(join(ROOT, path)))
  if (existsSync(join(dist, "index.d.ts")) && oldestMtime(dist) > Math.max(...inputs)) return dist
  const fresh = join(scratch, "dist")
  const build = await runNode(ROOT, [join(ROOT, "node_modules/tsup/dist/cli-default.js"), "--out-dir", fresh, "--silent"])
  if (build.code !== 0) throw new Error(`the build failed:\n${build.output}`)
  return fresh
}

/** `npm pack` of the package (its `files`, package.json, README, LICENSE) with a current dist/; returns the tarball's path. */
export const packTarball = async (scratch: string): Promise<string> => {
  const stage = join(scratch, "stage")
  mkdirSync(stage, { recursive: true })
  for (const path of ["package.json", "README.md", "LICENSE", ...manifest.files.filter((path) => path !== "dist")]) {
    if (existsSync(join(ROOT, path))) cpSync(join(ROOT, path), join(stage, path), { recursive: true })
  }
  cpSync(await currentDist(scratch), join(stage, "dist"), { recursive: true })
  const packed = await run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", scratch], stage)
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.output}`)
  return join(scratch, packed.stdout.trim().split("\n").pop()!)
}

export type ModuleKind = "module" | "commonjs"

/**
 * A host app of the given module kind with `tarball` unpacked as node_modules/flagport and the
 * package's dependencies (plus @types/node, as any Node host has) linked; `files` are written into it.
 */
export const scratchApp = (tarball: string, kind: ModuleKind, files: Record<string, string>): string => {
  const app = mkdtempSync(join(tmpdir(), `flagport-host-${kind}-`))
  const installed = join(app, "node_modules", manifest.name)
  mkdirSync(installed, { recursive: true })
  execFileSync("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"])
  for (const dependency of [...Object.keys(manifest.dependencies), "@types/node"]) {
    const link = join(app, "node_modules", dependency)
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(join(ROOT, "node_modules", dependency), link, "dir")
  }
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: `host-${kind}`, private: true, type: kind }))
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(app, path)), { recursive: true })
    writeFileSync(join(app, path), content)
  }
  return app
}

/** Runs this checkout's TypeScript compiler on the app's tsconfig.json (compiling into the app). */
export const typeCheck = (app: string): Promise<Run> => runNode(app, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", app])

/** A fresh temporary directory for one run's tarball and build. */
export const scratchDirectory = (): string => mkdtempSync(join(tmpdir(), "flagport-pack-"))
