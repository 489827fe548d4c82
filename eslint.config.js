import { builtinModules } from "node:module"
import tseslint from "typescript-eslint"

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
 * The rooms of the HTTP adapter (adapters/http), one direction of imports: serving may use every
 * room; api (the HttpApi declaration and handlers), lane (the evaluation lane) and signin (the
 * single sign-on redirects) use shared and the core, never each other nor serving; shared uses
 * only the core.
 */
const room = (name, forbidden) => ({
  files: [`adapters/http/${name}/**/*.ts`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: forbidden.map((other) => ({
          // `../lane/...` from a room's top, `../../lane/...` from a sub-folder (api/flags/, ...).
          regex: `(^|/)http/${other}(/|$)|^(\\.\\./)+${other}(/|$)`,
          message: `adapters/http/${name} must not import adapters/http/${other} (rooms import one way: serving -> api or lane -> shared -> core).`
        }))
      }
    ]
  }
})

const httpRooms = [
  room("shared", ["api", "lane", "serving", "signin"]),
  room("api", ["lane", "serving", "signin"]),
  room("lane", ["api", "serving", "signin"]),
  // The sign-in redirects (single sign-on): plain routes beside the API, mounted by serving.
  room("signin", ["api", "lane", "serving"])
]

/**
 * Arrows one way below the HTTP rooms too: the storage adapters are used by the backend switch
 * (adapters/storage) and the composition root (adapters/app), never the other way round; and the
 * lane (lane/EvaluationLane.ts) uses the stream route, which takes what it shares with the lane from
 * shared/ (no cycle between the two).
 */
const oneWay = [
  {
    files: ["adapters/sql/**/*.ts", "adapters/sql-pg/**/*.ts", "adapters/sql-sqlite/**/*.ts", "adapters/memory/**/*.ts", "adapters/change-feed/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "(^|/)(storage|app)/", message: "a storage adapter builds ports; it must not import adapters/storage or adapters/app (they import it)." }
          ]
        }
      ]
    }
  },
  {
    files: ["adapters/http/lane/StreamRoute.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^\\./EvaluationLane(\\.js)?$", message: "lane/EvaluationLane.ts imports StreamRoute.ts; what both need lives in shared/." }] }
      ]
    }
  }
]

/** A `no-restricted-imports` rule for `files` (one per file set: a later rule of that name replaces an earlier one). */
const restrict = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { "no-restricted-imports": ["error", { patterns }] }
})

/** The rooms the HTTP adapter, the composition root and the command line stand on. */
const UPPER_ROOMS = "^(\\.\\./)+(http|app|cli|storage)(/|$)"
const noArrowUp = (room) => ({ regex: UPPER_ROOMS, message: `adapters/${room} is below http, app, cli and storage: it must not import them (they import it).` })

/**
 * No circle in the composition root nor in telemetry, and no arrow back up from the rooms below
 * the HTTP adapter:
 * - adapters/app: the root (Composition.ts) uses the background workers (Workers.ts); nothing else
 *   in the room imports the root.
 * - adapters/telemetry: Tracing.ts is the room's face and loads the SDK (TracingSdk.ts) on demand,
 *   with `import()` (a server without tracing does not load it); no file imports either, and what
 *   they share with the rest of the room (TracingSettings.ts, ActiveTracing.ts) lies below them.
 * - settings (read by several rooms) imports no other room; single sign-on (oidc), telemetry,
 *   metrics, crypto and the webhook sender never import the rooms that build on them.
 */
const lowerRooms = [
  restrict(["adapters/app/**/*.ts"], [{ regex: "(^|/)Composition(\\.js)?$", message: "adapters/app/Composition.ts is the composition root: it imports the rest of adapters/app, never the other way round." }], ["adapters/app/Composition.ts"]),
  restrict(["adapters/telemetry/**/*.ts"], [
    { regex: "(^|/)(Tracing|TracingSdk)(\\.js)?$", message: "Tracing.ts (the face) and TracingSdk.ts (loaded by it on demand) are imported by no file of adapters/telemetry: take what is shared from TracingSettings.ts or ActiveTracing.ts." },
    noArrowUp("telemetry")
  ]),
  restrict(["adapters/settings/**/*.ts"], [{ regex: "^\\.\\./[^.]", message: "adapters/settings is read by several rooms: it must not import any of them." }]),
  ...["oidc", "metrics", "crypto", "webhook-http"].map((room) => restrict([`adapters/${room}/**/*.ts`], [noArrowUp(room)]))
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
          { group: ["node:*"], message: "the client must run without node: modules (edge runtimes)." },
          { group: ["**/src/services/**", "**/src/ports/**", "**/adapters/http/**", "**/adapters/sql*/**", "**/adapters/storage/**"], message: "the client depends on the pure evaluator only." }
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
  ...httpRooms,
  ...oneWay,
  ...lowerRooms,
  declarationSafeExports,
  clientBoundary,
  effectByModule
)
