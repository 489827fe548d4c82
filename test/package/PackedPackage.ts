/**
 * The package as a user gets it: `npm pack` (its prepack builds dist/ unless it was built from these
 * very sources), run in a copy of the checkout so that a build never rewrites the dist/ other tests
 * read. Then either unpacked into a scratch host app whose dependencies are links to this
 * checkout's node_modules (`scratchApp`, for type checks), or installed by npm into an empty app
 * (`installApp`).
 */
import { execFile, execFileSync } from "node:child_process"
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { ROOT } from "../cli/Process.js"

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  readonly name: string
  readonly dependencies: Record<string, string>
  readonly devDependencies: Record<string, string>
}

export interface Run {
  readonly code: number
  readonly stdout: string
  /** stdout and stderr. */
  readonly output: string
}

/** Runs a command to completion without blocking (a long synchronous child would stall the test worker). */
export const run = (command: string, args: ReadonlyArray<string>, cwd: string, env: Record<string, string> = {}): Promise<Run> =>
  new Promise((resolve) =>
    execFile(command, args, { cwd, encoding: "utf8", env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, output: `${stdout}${stderr}` })
    )
  )

/** Runs `node args...` in `cwd`; resolves with the exit code and output. */
export const runNode = (cwd: string, args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Run> =>
  run(process.execPath, args, cwd, env)

/**
 * A copy of the checkout as a clone of it would be (tracked files and new ones git does not
 * ignore), plus dist/ when there is one (prepack decides whether it can be used), with this
 * checkout's node_modules linked for the build tools.
 */
export const copyOfCheckout = (scratch: string, options: { readonly withDist?: boolean } = {}): string => {
  const copy = join(scratch, "checkout")
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  for (const path of listed.split("\0")) {
    if (path === "" || !existsSync(join(ROOT, path))) continue // deleted but not yet committed
    mkdirSync(dirname(join(copy, path)), { recursive: true })
    copyFileSync(join(ROOT, path), join(copy, path))
  }
  if (options.withDist !== false && existsSync(join(ROOT, "dist"))) cpSync(join(ROOT, "dist"), join(copy, "dist"), { recursive: true })
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir")
  return copy
}

/** `npm pack [spec]` run in `dir` (lifecycle scripts run, as for a user); returns the tarball's path. */
export const npmPack = async (dir: string, destination: string, spec?: string): Promise<{ readonly tarball: string; readonly output: string }> => {
  const packed = await run("npm", ["pack", ...(spec === undefined ? [] : [spec]), "--pack-destination", destination], dir)
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.output}`)
  return { tarball: join(destination, packed.stdout.trim().split("\n").pop()!), output: packed.output }
}

/** `npm pack` of the repository, as a user runs it in a clone; returns the tarball's path. */
export const packTarball = async (scratch: string): Promise<string> => (await npmPack(copyOfCheckout(scratch), scratch)).tarball

/** The version range of a development dependency of this repository (to install the same into an app). */
export const devDependency = (name: string): string => `${name}@${manifest.devDependencies[name]}`

/**
 * An empty app (`npm init -y`, then `npm pkg set type=<kind>`) into which npm installs `packages`
 * (tarballs or names), from npm's cache where it holds them. `ignoreScripts` skips install
 * scripts (the caller then owns what they would have built).
 */
export const installApp = async (packages: ReadonlyArray<string>, kind: ModuleKind, options: { readonly ignoreScripts?: boolean } = {}): Promise<string> => {
  const app = mkdtempSync(join(tmpdir(), "flagport-app-"))
  for (const args of [["init", "-y"], ["pkg", "set", `type=${kind}`]]) {
    const done = await run("npm", args, app)
    if (done.code !== 0) throw new Error(`npm ${args.join(" ")} failed:\n${done.output}`)
  }
  const flags = ["--prefer-offline", "--no-audit", "--no-fund", ...(options.ignoreScripts === true ? ["--ignore-scripts"] : [])]
  const installed = await run("npm", ["install", ...flags, ...packages], app)
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.output}`)
  return app
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
