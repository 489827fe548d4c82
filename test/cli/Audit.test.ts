/**
 * Writes made with the `flagport` command are in the audit log as the operator's (`cli`), read
 * back through the same use case the HTTP endpoint calls.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { freshSqliteUrl, keyLines, runCli } from "./Process.js"

const CLI_TIMEOUT = 120_000

describe("flagport commands in the audit log", () => {
  it("projects, environments and keys made with the CLI are recorded with actor cli", { timeout: CLI_TIMEOUT }, async () => {
    const env = { DATABASE_URL: freshSqliteUrl() }
    expect((await runCli(["migrate"], env)).code).toBe(0)
    expect((await runCli(["projects", "create", "shop", "--name", "Shop"], env)).code).toBe(0)
    expect((await runCli(["environments", "create", "production", "--project", "shop", "--name", "Production"], env)).code).toBe(0)
    const made = await runCli(["keys", "create", "--type", "client", "--project", "shop"], env)
    expect(made.code, made.stderr).toBe(0)
    const runtime = StorageLayer.makeRuntime(env.DATABASE_URL)
    try {
      const page = await runtime.runPromise(Effect.flatMap(Audit, (audit) => audit.list("shop", {})))
      expect(page.data.map((e) => [e.action, e.resource.type, e.actor]).reverse()).toEqual([
        ["project.created", "project", { type: "cli" }],
        ["environment.created", "environment", { type: "cli" }],
        ["key.created", "key", { type: "cli" }]
      ])
      const secret = keyLines(made.stdout)["KEY"]
      expect(secret).toMatch(/^cli_/)
      expect(JSON.stringify(page)).not.toContain(secret)
    } finally {
      await runtime.dispose()
    }
  })
})
