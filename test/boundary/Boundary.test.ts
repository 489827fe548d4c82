import { ESLint } from "eslint"
import { describe, expect, it } from "vitest"

/**
 * The hexagon's one hard rule, checked through the project's own ESLint configuration: code under
 * src/ may not import adapters/, @effect/platform*, @effect/sql* or Node's own modules, while adapters/ may.
 */
const lint = async (filePath: string, code: string) => {
  const [result] = await new ESLint().lintText(code, { filePath })
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message)
}

describe("boundary rule", () => {
  it.each([
    ['import * as Memory from "../adapters/memory/MemoryStorage.js"', "adapters/"],
    ['import { Storage } from "../../adapters/app/Composition.js"', "adapters/"],
    ['import { HttpApi } from "@effect/platform"', "@effect/platform"],
    ['import { NodeHttpServer } from "@effect/platform-node"', "@effect/platform"],
    ['import { SqlClient } from "@effect/sql"', "@effect/sql"],
    ['import { PgClient } from "@effect/sql-pg"', "@effect/sql"],
    ['import { createHmac } from "node:crypto"', "Node modules"],
    ['import { readFile } from "node:fs/promises"', "Node modules"],
    ['import { createHash } from "crypto"', "Node modules"],
    ['import * as fs from "fs"', "Node modules"],
    ['import { readFile } from "fs/promises"', "Node modules"]
  ])("src/ may not %s", async (code, what) => {
    const messages = await lint("src/domain/Probe.ts", `${code}\nexport {}\n`)
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain(what)
  })

  it("src/ may import effect and its own modules", async () => {
    expect(await lint("src/domain/Probe.ts", 'import { Schema } from "effect"\nimport { Key } from "./Ids.js"\nexport { Schema, Key }\n')).toEqual([])
  })

  it("adapters/ may import platform, sql and the core", async () => {
    const code = 'import { SqlClient } from "@effect/sql"\nimport { Flags } from "../../src/services/flags/Flags.js"\nexport { SqlClient, Flags }\n'
    expect(await lint("adapters/sql/Probe.ts", code)).toEqual([])
  })

  it("adapters/ may import Node modules", async () => {
    expect(await lint("adapters/crypto/Probe.ts", 'import { createHmac } from "node:crypto"\nimport * as fs from "fs"\nexport { createHmac, fs }\n')).toEqual([])
  })

  it("no file under src/ imports a Node module today", async () => {
    const results = await new ESLint().lintFiles(["src/**/*.ts"])
    const offending = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => `${r.filePath}:${m.line} ${m.message}`)
    )
    expect(offending).toEqual([])
  })
})
