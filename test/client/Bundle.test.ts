/**
 * `flagport/client` bundles for any runtime: esbuild for the neutral platform (no Node
 * built-ins) resolves it without `node:` modules or Effect, and the minified, gzipped bundle
 * stays within its 30 KB budget. The bootstrap file reader stays a runtime import.
 */
import { gzipSync } from "node:zlib"
import { describe, expect, it } from "@effect/vitest"
import { build } from "esbuild"

const bundle = async (entry: string) => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    write: false,
    metafile: true,
    logLevel: "silent"
  })
  const code = result.outputFiles[0]!.contents
  return { code: Buffer.from(code).toString("utf8"), gzipped: gzipSync(code, { level: 9 }).length, inputs: Object.keys(result.metafile.inputs) }
}

describe("the client bundle", () => {
  it("has no node: module, no Effect, and fits in 30 KB gzipped", async () => {
    const { code, gzipped, inputs } = await bundle("adapters/client/index.ts")
    expect(inputs.filter((path) => path.includes("node_modules"))).toEqual([])
    expect(inputs.filter((path) => /src\/(services|ports)\//.test(path))).toEqual([])
    expect(code).not.toMatch(/from\s*"node:/)
    expect(code).toContain('"node:fs/promises"') // the bootstrap reader's specifier, imported only when a path is given
    expect(gzipped).toBeLessThanOrEqual(30 * 1024)
  })

  it("the provider adds the client and nothing but the OpenFeature SDK", async () => {
    const result = await build({
      entryPoints: ["adapters/openfeature/index.ts"],
      bundle: true,
      format: "esm",
      platform: "neutral",
      external: ["@openfeature/server-sdk"],
      write: false,
      metafile: true,
      logLevel: "silent"
    })
    expect(Object.keys(result.metafile.inputs).filter((path) => path.includes("node_modules"))).toEqual([])
  })
})
