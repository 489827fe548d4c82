import tseslint from "typescript-eslint"

/**
 * The one rule that must never bend: the core (src/) stays pure. It may not reach
 * into adapters, nor into the platform or SQL packages that adapters wrap.
 */
const boundary = {
  files: ["src/**/*.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["**/adapters/**", "**/adapters"], message: "src/ must not import adapters/ (hexagonal boundary)." },
          { group: ["@effect/platform", "@effect/platform*", "@effect/platform-*/**", "@effect/platform/**"], message: "src/ must not import @effect/platform* (adapters only)." },
          { group: ["@effect/sql", "@effect/sql*", "@effect/sql-*/**", "@effect/sql/**"], message: "src/ must not import @effect/sql* (adapters only)." }
        ]
      }
    ]
  }
}

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "data/**", ".tmp/**"] },
  {
    files: ["**/*.ts"],
    languageOptions: { parser: tseslint.parser },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {}
  },
  boundary
)
