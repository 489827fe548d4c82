import { builtinModules } from "node:module"
import tseslint from "typescript-eslint"
import { plugin as roomsPlugin } from "./lint/rooms.js"

/** Node's own modules by their bare names ("crypto", "fs/promises", ...); `node:` names are matched by pattern. */
const nodeBuiltins = builtinModules.filter((name) => !name.startsWith("_") && !name.startsWith("node:"))

/**
 * The one rule that must never bend: the core (src/) stays pure. It may not reach
 * into adapters, nor into the platform or SQL packages that adapters wrap, nor into Node's own
 * modules (the core also runs in browsers and edge runtimes; crypto comes through src/ports/Crypto.ts).
 */
const boundary = {
  files: ["src/**/*.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        paths: nodeBuiltins.map((name) => ({ name, message: "src/ must not import Node modules (use a port; adapters only)." })),
        patterns: [
          { group: ["node:*"], message: "src/ must not import Node modules (use a port; adapters only)." },
          { group: ["**/adapters/**", "**/adapters"], message: "src/ must not import adapters/ (hexagonal boundary)." },
          { group: ["@effect/platform", "@effect/platform*", "@effect/platform-*/**", "@effect/platform/**"], message: "src/ must not import @effect/platform* (adapters only)." },
          { group: ["@effect/sql", "@effect/sql*", "@effect/sql-*/**", "@effect/sql/**"], message: "src/ must not import @effect/sql* (adapters only)." }
        ]
      }
    ]
  }
}

/**
 * The rooms of the tree import one way: every folder of src/ and adapters/ is a room (or a folder
 * inside one), and each room names the rooms it may import, once, in lint/rooms.js; the rule
 * refuses any other relative import between rooms (docs/internals/architecture.md draws the same
 * table).
 */
const rooms = {
  files: ["src/**/*.ts", "adapters/**/*.ts"],
  plugins: { rooms: roomsPlugin },
  rules: { "rooms/one-way": "error" }
}

/** A `no-restricted-imports` rule for `files` (one per file set: a later rule of that name replaces an earlier one). */
const restrict = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { "no-restricted-imports": ["error", { patterns }] }
})

/**
 * No circle inside a room either, where one could start (between rooms, rooms/one-way says it):
 * - adapters/http/lane: EvaluationLane.ts uses the stream route (StreamRoute.ts), which takes what
 *   it shares with the lane from shared/.
 * - adapters/app: the root (Composition.ts) uses the background workers (Workers.ts); nothing else
 *   in the room imports the root.
 * - adapters/telemetry: Tracing.ts is the room's face and loads the SDK (TracingSdk.ts) on demand,
 *   with `import()` (a server without tracing does not load it); no file imports either, and what
 *   they share with the rest of the room (TracingSettings.ts, ActiveTracing.ts) lies below them.
 */
const withinRooms = [
  restrict(["adapters/http/lane/StreamRoute.ts"], [{ regex: "^\\./EvaluationLane(\\.js)?$", message: "lane/EvaluationLane.ts imports StreamRoute.ts; what both need lives in shared/." }]),
  restrict(["adapters/app/**/*.ts"], [{ regex: "(^|/)Composition(\\.js)?$", message: "adapters/app/Composition.ts is the composition root: it imports the rest of adapters/app, never the other way round." }], ["adapters/app/Composition.ts"]),
  restrict(["adapters/telemetry/**/*.ts"], [
    { regex: "(^|/)(Tracing|TracingSdk)(\\.js)?$", message: "Tracing.ts (the face) and TracingSdk.ts (loaded by it on demand) are imported by no file of adapters/telemetry: take what is shared from TracingSettings.ts or ActiveTracing.ts." }
  ])
]

/**
 * The published declarations are bundled by tsup (rollup-plugin-dts), which turns a type-only
 * re-export inside an `export * as X` namespace into a value, breaking hosts that type-check
 * libraries (skipLibCheck: false). Re-export a type as an alias instead: `export type T = Imported`.
 */
const declarationSafeExports = {
  files: ["src/**/*.ts"],
  rules: {
    "no-restricted-syntax": [
      "error",
      {
        selector: "ExportNamedDeclaration[exportKind='type'][source]",
        message: "Use `export type T = Imported` instead of `export type { T } from`: the bundled .d.ts would declare it as a value."
      },
      {
        selector: "ExportNamedDeclaration[source] > ExportSpecifier[exportKind='type']",
        message: "Use `export type T = Imported` instead of `export { type T } from`: the bundled .d.ts would declare it as a value."
      }
    ]
  }
}

/**
 * The SDK runs on Node, Bun, Deno and edge runtimes: it may use the pure evaluator and fetch,
 * never Effect, the platform or SQL packages, node: modules, ports or services. Only the
 * Effect-native face (its own entry, flagport/client/effect) may import effect.
 */
const clientBoundary = {
  files: ["adapters/client/**/*.ts", "adapters/openfeature/**/*.ts"],
  ignores: ["adapters/client/FlagportClient.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["effect", "effect/*", "@effect/*"], message: "the client must not depend on Effect (bundle size, every runtime): see adapters/client/Core.ts." },
          { group: ["node:*"], message: "the client must run without node: modules (edge runtimes)." }
        ]
      }
    ]
  }
}

/**
 * Effect is imported by module (`effect/Effect`, `effect/Schema`), never through the `effect`
 * barrel, in the core and the adapters the kit's entry points load: the barrel loads every Effect
 * module and, through `effect/FastCheck`, fast-check, which made `import { Evaluate } from
 * "flagport"` take hundreds of milliseconds more. A rule of its own name, so that it adds to the
 * rooms' `no-restricted-imports` instead of replacing them.
 */
const effectByModule = {
  files: ["src/**/*.ts", "adapters/**/*.ts"],
  rules: {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      { paths: [{ name: "effect", message: "Import Effect by module (import * as Effect from \"effect/Effect\"): the barrel loads every module and fast-check." }] }
    ]
  }
}

export default tseslint.config(
  { ignores: ["dist/**", "adapters/client/dist/**", "node_modules/**", "coverage/**", "data/**", ".tmp/**"] },
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parser: tseslint.parser },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {}
  },
  boundary,
  rooms,
  ...withinRooms,
  declarationSafeExports,
  clientBoundary,
  effectByModule
)
