/**
 * Typed code generation: `GET /v1/projects/{p}/codegen/typescript` and `flagport codegen` (from the
 * database, and from a running server with --url/--key) give the same module; a program using the
 * SDK with it type-checks, its `@ts-expect-error` lines prove that an unknown key or a wrong type
 * does not compile, and once a flag is renamed in the service, the program using the old key no
 * longer compiles (checked with the TypeScript compiler API).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import ts from "typescript"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { typescriptModule } from "../../src/domain/codegen/TypeScriptModule.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { runCli } from "../cli/Process.js"
import { freshSqliteUrl } from "../cli/Process.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

// Inside the repository (under .tmp, ignored by git), so the program's relative import of the SDK resolves.
const DIR = new URL(`../../.tmp/codegen-${process.pid}/`, import.meta.url)
const PROGRAM = new URL("program.ts.txt", import.meta.url)

let t: TestServer
const databaseUrl = freshSqliteUrl()
const admin = () => ({ key: t.keys.global })

const FLAGS = [
  { key: "new-checkout", name: "New checkout", description: "The one-page checkout */ not closed", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] },
  { key: "banner-text", type: "string", variations: [{ key: "a", value: "Hi" }, { key: "b", value: "Hello" }] },
  { key: "upload-limit", type: "number", variations: [{ key: "small", value: 10 }, { key: "large", value: 100 }] },
  { key: "theme", type: "json", variations: [{ key: "light", value: { dark: false } }, { key: "dark", value: { dark: true } }] }
]

/** Type-checks the program against `flags.ts` (strict); the diagnostics as `line: message`. */
const typeCheck = (moduleText: string, programText: string = readFileSync(PROGRAM, "utf8")): ReadonlyArray<string> => {
  writeFileSync(new URL("flags.ts", DIR), moduleText)
  writeFileSync(new URL("program.ts", DIR), programText)
  const program = ts.createProgram([fileURLToPath(new URL("program.ts", DIR))], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: [],
    skipLibCheck: true
  })
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file === undefined || d.start === undefined ? "?" : String(d.file.getLineAndCharacterOfPosition(d.start).line + 1)
    return `${d.file?.fileName.split("/").pop()}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`
  })
}

beforeAll(async () => {
  t = await startServer(StorageLayer.fromDatabaseUrl(databaseUrl))
  for (const flag of FLAGS) {
    const created = await request(t.url, "POST", "/v1/projects/p1/flags", { ...admin(), body: flag })
    expect(created.status, created.text).toBe(201)
  }
  // Targeting with an "any of these" group: codegen reads keys, types and variations only, so it generates the same module.
  const targeting = await request(t.url, "PUT", "/v1/projects/p1/flags/new-checkout/targeting", {
    ...admin(),
    body: { environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ conditions: [{ anyOf: [[{ attribute: "country", operator: "in", values: ["DE"] }], [{ attribute: "plan", operator: "in", values: ["pro"] }]] }], variationKey: "on" }] }
  })
  expect(targeting.status, targeting.text).toBe(200)
  mkdirSync(DIR, { recursive: true })
}, 60_000)
afterAll(async () => {
  await t?.close()
  rmSync(DIR, { recursive: true, force: true })
})

describe("codegen", () => {
  it("the endpoint serves the generator's module: every key with its type, sorted, comments kept closed", async () => {
    const reply = await request(t.url, "GET", "/v1/projects/p1/codegen/typescript", admin())
    expect(reply.status, reply.text).toBe(200)
    expect(reply.headers.get("content-type")).toContain("text/plain")
    const flags = await t.run(Effect.flatMap(Flags, (service) => service.list("p1")))
    expect(reply.text).toBe(typescriptModule("p1", flags))
    expect(reply.text).toContain(`  readonly "banner-text": "string"\n`)
    expect(reply.text).toContain(`export const flagKeys = ["banner-text", "new-checkout", "theme", "upload-limit"] as const`)
    expect(reply.text).toContain("one-page checkout *\\/ not closed")
    expect((await request(t.url, "GET", "/v1/projects/p1/codegen/typescript", { key: t.keys.client })).status).toBe(403)
    expect((await request(t.url, "GET", "/v1/projects/nope/codegen/typescript", admin())).status).toBe(404)
  })

  it("flagport codegen writes the same module from the database and from a running server", async () => {
    const served = (await request(t.url, "GET", "/v1/projects/p1/codegen/typescript", admin())).text
    const fromDb = await runCli(["codegen", "--project", "p1"], { DATABASE_URL: databaseUrl })
    expect(fromDb.code, fromDb.stderr).toBe(0)
    expect(fromDb.stdout).toBe(served)
    const out = fileURLToPath(new URL("written.ts", DIR))
    const fromServer = await runCli(["codegen", "--project", "p1", "--out", out, "--url", t.url, "--key", t.keys.global])
    expect(fromServer.code, fromServer.stderr).toBe(0)
    expect(readFileSync(out, "utf8")).toBe(served)
    const refused = await runCli(["codegen", "--project", "p1", "--url", t.url, "--key", t.keys.client])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("A server API key is required for management endpoints.")
    const half = await runCli(["codegen", "--project", "p1", "--url", t.url])
    expect(half.code).toBe(2)
  }, 120_000)

  it("the generated types make unknown keys and wrong types compile errors; renaming a flag breaks the old key", async () => {
    // Every request first: a type-check blocks this process (and the server in it) for seconds, and
    // a request right after one raced the server closing its idle keep-alive connection (ECONNRESET).
    const before = (await request(t.url, "GET", "/v1/projects/p1/codegen/typescript", admin())).text
    // Renamed in the service: the flag under its old key is gone, a new key serves instead.
    expect((await request(t.url, "DELETE", "/v1/projects/p1/flags/banner-text", admin())).status).toBe(204)
    expect((await request(t.url, "POST", "/v1/projects/p1/flags", { ...admin(), body: { ...FLAGS[1], key: "welcome-banner" } })).status).toBe(201)
    const after = (await request(t.url, "GET", "/v1/projects/p1/codegen/typescript", admin())).text

    // Every @ts-expect-error line is used (an unused one is itself an error), nothing else fails.
    expect(typeCheck(before)).toEqual([])
    const problems = typeCheck(after)
    expect(problems.length).toBeGreaterThan(0)
    expect(problems.every((p) => p.startsWith("program.ts:"))).toBe(true)
    expect(problems.some((p) => p.includes(`"banner-text"`))).toBe(true)

    // A key read with the getter of another type: the compiler's message names the problem (it
    // said "parameter of type 'never'" when no flag had the getter's type, which told nothing).
    const wrongGetters = readFileSync(PROGRAM, "utf8")
      .split("\n")
      .filter((line) => !line.includes("@ts-expect-error a string flag is not read as a boolean") && !line.includes("@ts-expect-error a number flag is not read as a string"))
      .join("\n")
    const messages = typeCheck(before, wrongGetters)
    expect(messages).toHaveLength(2)
    expect(messages[0]).toContain('flag \\"banner-text\\" is a string flag, not a boolean flag: read it with .string()')
    expect(messages[1]).toContain('flag \\"upload-limit\\" is a number flag, not a string flag: read it with .number()')
    for (const message of messages) expect(message).not.toContain("never")
  }, 120_000)
})
