import { ESLint } from "eslint"
import { describe, expect, it } from "vitest"

/**
 * The hexagon's one hard rule, checked through the project's own ESLint configuration: code under
 * src/ may not import adapters/, @effect/platform* or @effect/sql*, while adapters/ may.
 */
const lint = async (filePath: string, code: string) => {
  const [result] = await new ESLint().lintText(code, { filePath })
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message)
}

describe("boundary rule", () => {
  it.each([
    ['import * as Memory from "../adapters/memory/MemoryStorage.js"', "adapters/"],
    ['import { Storage } from "../../adapters/storage/StorageLayer.js"', "adapters/"],
    ['import { HttpApi } from "@effect/platform"', "@effect/platform"],
    ['import { NodeHttpServer } from "@effect/platform-node"', "@effect/platform"],
    ['import { SqlClient } from "@effect/sql"', "@effect/sql"],
    ['import { PgClient } from "@effect/sql-pg"', "@effect/sql"]
  ])("src/ may not %s", async (code, what) => {
    const messages = await lint("src/domain/Probe.ts", `${code}\nexport {}\n`)
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain(what)
  })

  it("src/ may import effect and its own modules", async () => {
    expect(await lint("src/domain/Probe.ts", 'import { Schema } from "effect"\nimport { Key } from "./Ids.js"\nexport { Schema, Key }\n')).toEqual([])
  })

  it("adapters/ may import platform, sql and the core", async () => {
    const code = 'import { SqlClient } from "@effect/sql"\nimport { Flags } from "../../src/services/Flags.js"\nexport { SqlClient, Flags }\n'
    expect(await lint("adapters/sql/Probe.ts", code)).toEqual([])
  })
})
