import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { ESLint } from "eslint"
import { describe, expect, it } from "vitest"

/**
 * Imports run one way inside rooms too: the rules in eslint.config.js say it where a rule can
 * (`rooms/one-way` between rooms, from lint/rooms.js, whose table test/boundary/Rooms.test.ts holds
 * to the tree; `withinRooms` for the composition root and the telemetry room's face), and the whole
 * tree (src/ and adapters/) is searched here for import circles between files, which no per-file
 * rule can see. The engine rooms on worker threads are entered through one file each (their
 * READMEs say why), which is checked here too.
 */
const ROOT = resolve(__dirname, "../..")

const lint = async (filePath: string, code: string) => {
  const [result] = await new ESLint().lintText(code, { filePath })
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "rooms/one-way").map((m) => m.message)
}

const filesOf = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.name === "dist" || entry.name === "node_modules"
      ? []
      : entry.isDirectory()
        ? filesOf(join(dir, entry.name))
        : entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")
          ? [join(dir, entry.name)]
          : []
  )

/** The files of this tree a file imports: static imports and re-exports, types too, and `import("...")`. */
const importsOf = (file: string): Array<string> => {
  const text = readFileSync(file, "utf8")
  const specs = [
    ...[...text.matchAll(/^(?:import|export)[^"'`;]*?from\s+["']([^"']+)["']/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!)
  ]
  return specs
    .filter((spec) => spec.startsWith("."))
    .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, ".ts")))
    .filter((target) => existsSync(target))
}

/** The import circles among `files` (Tarjan's strongly connected components of more than one file, or a file importing itself). */
const circlesOf = (files: ReadonlyArray<string>): Array<Array<string>> => {
  const edges = new Map(files.map((file) => [file, importsOf(file)]))
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const circles: Array<Array<string>> = []
  const visit = (file: string): void => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    onStack.add(file)
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!))
    }
    if (low.get(file) !== index.get(file)) return
    const component: Array<string> = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    if (component.length > 1 || (edges.get(file) ?? []).includes(file)) circles.push(component.map((f) => relative(ROOT, f)).sort())
  }
  for (const file of files) if (!index.has(file)) visit(file)
  return circles
}

describe("adapter rooms", () => {
  it("no import circle in src/ or adapters/", () => {
    expect(circlesOf([...filesOf(join(ROOT, "src")), ...filesOf(join(ROOT, "adapters"))])).toEqual([])
  })

  it("the search finds a circle, through a type import or an import() too", () => {
    const dir = mkdtempSync(join(tmpdir(), "flagport-circle-"))
    try {
      writeFileSync(join(dir, "A.ts"), 'import type { B } from "./B.js"\nexport type A = B\n')
      writeFileSync(join(dir, "B.ts"), 'export type B = string\nexport const load = () => import("./C.js")\n')
      writeFileSync(join(dir, "C.ts"), 'export { type A } from "./A.js"\n')
      writeFileSync(join(dir, "D.ts"), 'import type { A } from "./A.js"\nexport type D = A\n')
      const files = ["A.ts", "B.ts", "C.ts", "D.ts"].map((name) => join(dir, name))
      expect(circlesOf(files)).toEqual([[files[0], files[1], files[2]].map((file) => relative(ROOT, file))])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it.each([
    ["adapters/sql-sqlite/worker", ["WorkerSqlClient.ts"]],
    ["adapters/telemetry/lane", ["LaneSpans.ts"]]
  ])("the engine room %s is entered only through %j", (folder, entries) => {
    const inside = join(ROOT, folder)
    const outside = [...filesOf(join(ROOT, "src")), ...filesOf(join(ROOT, "adapters")), ...filesOf(join(ROOT, "bench"))].filter((file) => !file.startsWith(`${inside}/`))
    const reached = outside.flatMap((file) => importsOf(file).filter((target) => target.startsWith(`${inside}/`)).map((target) => relative(inside, target)))
    expect(reached.length).toBeGreaterThan(0)
    expect([...new Set(reached)].sort()).toEqual([...entries].sort())
  })

  it.each([
    ["adapters/app/Workers.ts", 'import type { Services } from "./Composition.js"', "composition root"],
    ["adapters/telemetry/TracingSdk.ts", 'import { ActiveTracing } from "./Tracing.js"', "Tracing.ts (the face)"],
    ["adapters/telemetry/DiagLog.ts", 'import type { OtelLogLevel } from "./Tracing.js"', "Tracing.ts (the face)"],
    ["adapters/telemetry/lane/LaneSpans.ts", 'import { layer } from "../TracingSdk.js"', "Tracing.ts (the face)"],
    ["adapters/telemetry/Tracing.ts", 'import * as Sdk from "./TracingSdk.js"', "Tracing.ts (the face)"],
    ["adapters/telemetry/Probe.ts", 'import * as App from "../http/serving/App.js"', "adapters/telemetry must not import adapters/http/serving"],
    ["adapters/oidc/OidcSettings.ts", 'import { parsePublicUrl } from "../http/shared/PublicUrl.js"', "adapters/oidc must not import adapters/http/shared"],
    ["adapters/oidc/Probe.ts", 'import * as Composition from "../app/Composition.js"', "adapters/oidc must not import adapters/app"],
    ["adapters/metrics/Probe.ts", 'import * as Ports from "../storage/Ports.js"', "adapters/metrics must not import adapters/storage"],
    ["adapters/webhook-http/Probe.ts", 'import * as Cli from "../cli/Cli.js"', "adapters/webhook-http must not import adapters/cli"],
    ["adapters/crypto/Probe.ts", 'import * as Errors from "../http/shared/Errors.js"', "adapters/crypto must not import adapters/http/shared"],
    ["adapters/settings/Probe.ts", 'import * as Oidc from "../oidc/Oidc.js"', "adapters/settings must not import adapters/oidc"]
  ])("the lint rule refuses, in %s: %s", async (file, code, what) => {
    const messages = await lint(file, `${code}\nexport {}\n`)
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain(what)
  })

  it("the lint rule lets each room use what lies below it", async () => {
    expect(await lint("adapters/app/Composition.ts", 'import * as Workers from "./Workers.js"\nexport { Workers }\n')).toEqual([])
    expect(await lint("adapters/telemetry/TracingSdk.ts", 'import { ActiveTracing } from "./ActiveTracing.js"\nimport type { TracingSettings } from "./TracingSettings.js"\nexport { ActiveTracing, type TracingSettings }\n')).toEqual([])
    expect(await lint("adapters/telemetry/Tracing.ts", 'export const load = () => import("./TracingSdk.js")\n')).toEqual([])
    expect(await lint("adapters/oidc/OidcSettings.ts", 'import { parsePublicUrl } from "../settings/PublicUrl.js"\nimport type { Role } from "../../src/domain/people/Role.js"\nexport { parsePublicUrl, type Role }\n')).toEqual([])
    expect(await lint("adapters/settings/Probe.ts", 'import * as Either from "effect/Either"\nimport { Base64 } from "../../src/domain/Base64.js"\nexport { Either, Base64 }\n')).toEqual([])
  })
})
