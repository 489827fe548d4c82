import { defineConfig } from "tsup"

/**
 * `@flagport/client`, the SDK and its OpenFeature provider as a package of their own
 * (`npm pack ./adapters/client`): built from the same sources as `flagport/client` and
 * `flagport/openfeature`, with nothing to install beside them. The evaluator and the `matches`
 * engine (re2js, loaded on demand) are bundled in; the OpenFeature SDK stays an (optional) peer.
 */
export default defineConfig({
  entry: {
    index: "index.ts",
    openfeature: "../openfeature/index.ts"
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  // CommonJS too: one copy of the client (and of the lazily loaded re2js) shared by both entries.
  splitting: true,
  target: "es2022",
  platform: "neutral",
  outDir: "dist",
  external: ["@openfeature/server-sdk"],
  noExternal: ["re2js"],
  // The bootstrap file reader imports node:fs/promises on demand, only when given a path.
  esbuildOptions: (options) => {
    options.external = [...(options.external ?? []), "node:*"]
  }
})
