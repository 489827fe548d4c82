/**
 * `flagport/client` bundles for any runtime: esbuild for the neutral platform (no Node
 * built-ins) resolves it without `node:` modules or Effect, and the minified, gzipped main bundle
 * stays within its 30 KB budget. The bootstrap file reader stays a runtime import.
 *
 * The main bundle is the entry chunk and every chunk it imports statically: what a host loads to
 * start a client. The `matches` engine (re2js) is a dynamic import, loaded only for a
 * configuration that has a `matches` condition (adapters/client/RegexLoading.ts); with code
 * splitting it is a chunk of its own, outside the main bundle and its budget.
 */
import { gzipSync } from "node:zlib"
import { describe, expect, it } from "@effect/vitest"
import { build, type Metafile } from "esbuild"

/** The outputs reachable from `from` through static imports (dynamic imports excluded). */
const staticClosure = (outputs: Metafile["outputs"], from: string): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const visit = (path: string) => {
    if (seen.has(path)) return
    seen.add(path)
    for (const i of outputs[path]!.imports) if (i.kind === "import-statement" && !i.external) visit(i.path)
  }
  visit(from)
  return [...seen]
}

const bundle = async (entry: string, external: Array<string> = []) => {
  const result = await build({
    external,
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "esm",
    splitting: true,
    outdir: "out",
    platform: "neutral",
    mainFields: ["module", "main"],
    write: false,
    metafile: true,
    logLevel: "silent"
  })
  const outputs = result.metafile.outputs
  const entryOutput = Object.keys(outputs).find((path) => outputs[path]!.entryPoint !== undefined)!
  const main = new Set(staticClosure(outputs, entryOutput))
  const files = new Map(result.outputFiles.map((file) => [file.path.slice(file.path.lastIndexOf("/out/") + 1), file.contents]))
  const inputsOf = (paths: Iterable<string>) => [...paths].flatMap((path) => Object.keys(outputs[path]!.inputs))
  const mainCode = [...main].map((path) => Buffer.from(files.get(path)!).toString("utf8"))
  return {
    code: mainCode.join("\n"),
    gzipped: [...main].reduce((sum, path) => sum + gzipSync(files.get(path)!, { level: 9 }).length, 0),
    inputs: inputsOf(main),
    lazyInputs: inputsOf(Object.keys(outputs).filter((path) => !main.has(path) && path.endsWith(".js")))
  }
}

describe("the client bundle", () => {
  it("has no node: module, no Effect, and fits in 30 KB gzipped", async () => {
    const { code, gzipped, inputs, lazyInputs } = await bundle("adapters/client/index.ts")
    expect(inputs.filter((path) => path.includes("node_modules"))).toEqual([])
    expect(inputs.filter((path) => path.endsWith("conditions/Re2.ts"))).toEqual([])
    expect(lazyInputs.some((path) => path.includes("node_modules/re2js/"))).toBe(true) // the matches engine: its own chunk
    expect(inputs.filter((path) => /src\/(services|ports)\//.test(path))).toEqual([])
    expect(code).not.toMatch(/from\s*"node:/)
    expect(code).toContain('"node:fs/promises"') // the bootstrap reader's specifier, imported only when a path is given
    expect(gzipped).toBeLessThanOrEqual(30 * 1024)
  })

  it("the provider adds the client and nothing but the OpenFeature SDK", async () => {
    const { inputs } = await bundle("adapters/openfeature/index.ts", ["@openfeature/server-sdk"])
    expect(inputs.filter((path) => path.includes("node_modules"))).toEqual([])
  })
})
