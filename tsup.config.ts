import { defineConfig } from "tsup"

/**
 * The package's entry points. `flagport` is the pure core (domain, ports, services); the
 * adapters are separate subpaths so that a host which only evaluates in process never loads
 * the HTTP server or a database driver. `flagport/client` (and `flagport/openfeature` over it)
 * must stay free of Effect and node: modules: it runs on Node, Bun, Deno and edge runtimes.
 */
export default defineConfig({
  entry: {
    index: "src/index.ts",
    http: "adapters/http/serving/Embed.ts",
    server: "adapters/http/serving/Server.ts",
    storage: "adapters/app/Composition.ts",
    memory: "adapters/memory/MemoryStorage.ts",
    crypto: "adapters/crypto/NodeCrypto.ts",
    cli: "adapters/cli/Main.ts",
    // The SDK and its OpenFeature provider: fetch and the pure evaluator only, for any runtime.
    client: "adapters/client/index.ts",
    "client-effect": "adapters/client/FlagportClient.ts",
    openfeature: "adapters/openfeature/index.ts",
    // fast-check arbitraries for property tests (fast-check is an optional peer, so not bundled).
    testing: "adapters/testing/Arbitraries.ts"
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  // `import.meta.url` in the CommonJS build too (the dashboard finds its files from it).
  shims: true,
  target: "node20",
  outDir: "dist",
  // Native and optional drivers stay in node_modules.
  external: ["better-sqlite3", "pg-native"]
})
