// Builds the dashboard's assets: index.html, app.js and app.css (Preact and signals bundled in,
// minified, no source maps, nothing fetched from elsewhere at run time).
// - `node ui/build.mjs [outdir]` writes them (npm run build: dist/ui);
// - `buildDashboard()` returns them in memory (the server does this in a checkout, so `npm start`
//   serves the current sources with no build step).
import { readFile, mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const here = fileURLToPath(new URL(".", import.meta.url))

/** The script as one minified ES module (Preact and signals bundled in); `extra`: more esbuild options. */
const bundle = async (extra = {}) => {
  const esbuild = await import("esbuild")
  return esbuild.build({
    entryPoints: { app: join(here, "main.tsx") },
    bundle: true,
    write: false,
    minify: true,
    format: "esm",
    target: ["es2020", "chrome100", "firefox100", "safari15"],
    jsx: "automatic",
    jsxImportSource: "preact",
    outdir: "/ui",
    logLevel: "error",
    legalComments: "none",
    ...extra
  })
}

/** @returns {Promise<Map<string, Uint8Array>>} file name -> content */
export const buildDashboard = async () => {
  const result = await bundle()
  const files = new Map()
  for (const file of result.outputFiles) files.set(file.path.replace(/^.*\//, ""), file.contents)
  files.set("app.css", new TextEncoder().encode(await minifyCss(await readFile(join(here, "styles.css"), "utf8"))))
  files.set("index.html", new Uint8Array(await readFile(join(here, "index.html"))))
  return files
}

/**
 * Every file the script is bundled from, as paths relative to the working directory: the dashboard
 * imports the domain's pure tables and rules, and a test holds Effect out of what they import.
 * @returns {Promise<ReadonlyArray<string>>}
 */
export const dashboardInputs = async () => Object.keys((await bundle({ metafile: true })).metafile.inputs)

const minifyCss = async (css) => {
  const esbuild = await import("esbuild")
  return (await esbuild.transform(css, { loader: "css", minify: true })).code
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const outdir = process.argv[2] ?? join(here, "../dist/ui")
  await mkdir(outdir, { recursive: true })
  const files = await buildDashboard()
  for (const [name, content] of files) await writeFile(join(outdir, name), content)
  process.stdout.write(`dashboard: ${[...files.keys()].join(", ")} in ${outdir}\n`)
}
