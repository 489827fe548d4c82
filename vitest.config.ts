import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/globalSetup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: keep workers few so PostgreSQL and SQLite tests do not starve each other.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } }
  }
})
