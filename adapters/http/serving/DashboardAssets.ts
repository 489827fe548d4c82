/**
 * Where the dashboard's files come from (index.html, app.js, app.css):
 *
 * - in a checkout (the `ui/` sources are present), they are built in memory from the sources on
 *   first use (ui/build.mjs, esbuild; a few hundred milliseconds), so `npm start` on a fresh clone
 *   serves the current dashboard with no build step;
 * - in an installed package, they are read from `dist/ui/`, written by `npm run build`.
 *
 * The package root is found by walking up to the `package.json` named `flagport`: from the
 * `flagport` command that started the process, if it did (its bundle of the sources is cached
 * under node_modules, which may be a link to another checkout's), else from this module (the
 * sources, dist/, or the package installed in a host).
 */
import { existsSync, readFileSync, realpathSync } from "node:fs"
import { readdir, readFile } from "node:fs/promises"
import { basename, dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

export type AssetFiles = ReadonlyMap<string, Uint8Array>

// The CommonJS build gets `import.meta.url` from tsup's shims (tsup.config.ts).
const moduleDirectory = (): string => dirname(fileURLToPath(import.meta.url))

export const packageRoot = (from: string = moduleDirectory()): string | undefined => {
  let dir = from
  for (;;) {
    const manifest = join(dir, "package.json")
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "flagport") return dir
      } catch {
        // an unreadable manifest is not ours: keep walking up
      }
    }
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

/** The root of the checkout or package whose `bin/flagport.mjs` started this process, if one did. */
const commandRoot = (): string | undefined => {
  const script = process.argv[1]
  if (script === undefined) return undefined
  try {
    const real = realpathSync(script)
    return basename(real) === "flagport.mjs" && basename(dirname(real)) === "bin" ? packageRoot(dirname(real)) : undefined
  } catch {
    return undefined
  }
}

const readBuilt = async (dir: string): Promise<AssetFiles> => {
  const files = new Map<string, Uint8Array>()
  for (const name of await readdir(dir)) files.set(name, new Uint8Array(await readFile(join(dir, name))))
  return files
}

/** The dashboard's files, or an error saying why there are none. */
export const loadAssets = async (root: string | undefined = commandRoot() ?? packageRoot()): Promise<AssetFiles> => {
  if (root === undefined) throw new Error("the flagport package directory was not found")
  const builder = join(root, "ui", "build.mjs")
  if (existsSync(builder)) {
    const { buildDashboard } = (await import(pathToFileURL(builder).href)) as { buildDashboard: () => Promise<AssetFiles> }
    return buildDashboard()
  }
  const built = join(root, "dist", "ui")
  if (existsSync(join(built, "index.html"))) return readBuilt(built)
  throw new Error("dist/ui is missing: run `npm run build`")
}
