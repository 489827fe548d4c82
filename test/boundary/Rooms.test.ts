/**
 * The map of the tree cannot drift: lint/rooms.js declares every room of src/ and adapters/ and
 * the rooms each may import; eslint.config.js builds its `rooms/one-way` rule from it. These tests
 * hold the three together and the tree to them: the table of docs/internals/architecture.md is
 * the declared one (UPDATE_GOLDEN=1 rewrites it), every folder on disk is declared, the files
 * import only what their room may (whether or not anyone ran the linter), every arrow the table
 * allows is one the code uses, the arrows go one way, and the lint rule refuses what the table
 * refuses.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { ESLint } from "eslint"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { allows, docsTable, ROOMS, roomOf, ROOT } from "../../lint/rooms.js"

const DOC = join(ROOT, "docs/internals/architecture.md")
const BLOCK = /(<!-- rooms-table:start[^>]*-->\n)([\s\S]*?)(\n<!-- rooms-table:end -->)/
const SKIPPED = new Set(["node_modules", "dist"])
const CODE = /\.(ts|tsx|mts)$/
const names = ROOMS.map(({ room }) => room)

/** Every folder under `dir` (repository-relative) that holds code directly. */
const foldersWithCode = (dir: string): Array<string> => {
  const entries = readdirSync(join(ROOT, dir), { withFileTypes: true })
  const here = entries.some((entry) => entry.isFile() && CODE.test(entry.name)) ? [dir] : []
  return [...here, ...entries.filter((entry) => entry.isDirectory() && !SKIPPED.has(entry.name)).flatMap((entry) => foldersWithCode(`${dir}/${entry.name}`))]
}

const codeFiles = (dir: string): Array<string> =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? SKIPPED.has(entry.name) ? [] : codeFiles(`${dir}/${entry.name}`)
      : CODE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [`${dir}/${entry.name}`] : []
  )

/** Every module a file names: imports (type-only too), `export ... from`, `import()` and `import("...")` types. */
const specifiers = (file: string): Array<string> => {
  const found: Array<string> = []
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push(node.arguments[0].text)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(ts.createSourceFile(file, readFileSync(join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, false, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS))
  return found
}

/** Each file's relative imports, as the rooms they land in. */
const arrows = ["src", "adapters"].flatMap(codeFiles).flatMap((file) => {
  const from = roomOf(file)!
  return specifiers(file)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => {
      const target = relative(ROOT, resolve(ROOT, dirname(file), spec)).split("\\").join("/")
      return { file, spec, from, to: target.startsWith("..") ? undefined : roomOf(target) }
    })
    .filter((arrow) => arrow.to !== undefined && arrow.to !== from)
})

/** The rooms an entry of `mayImport` stands for. */
const expand = (entry: string): ReadonlyArray<string> =>
  entry.endsWith("/**") ? names.filter((name) => name === entry.slice(0, -3) || name.startsWith(entry.slice(0, -2))) : [entry]

describe("the rooms table", () => {
  it("docs/internals/architecture.md shows the declared table", () => {
    const doc = readFileSync(DOC, "utf8")
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(DOC, doc.replace(BLOCK, (_, start, _table, end) => `${start}${docsTable()}${end}`))
    expect(BLOCK.exec(readFileSync(DOC, "utf8"))?.[2], "regenerate it: UPDATE_GOLDEN=1 npx vitest run test/boundary/Rooms.test.ts").toBe(docsTable())
  })

  it("names every folder of src/ and adapters/ that holds code, as a room or a folder of one", () => {
    const declared = new Set(ROOMS.flatMap(({ room, folders = [] }) => [room, ...folders.map((folder) => `${room}/${folder}`)]))
    const onDisk = ["src", "adapters"].flatMap(foldersWithCode)
    expect(onDisk.filter((folder) => !declared.has(folder)), "add a row to lint/rooms.js, or the folder to its room's folders").toEqual([])
    expect([...declared].filter((folder) => !onDisk.includes(folder)), "a declared room or folder holds no code any more").toEqual([])
  })

  it("declares each room once and allows only rooms it declares", () => {
    expect(new Set(names).size).toBe(names.length)
    const unknown = ROOMS.flatMap(({ room, mayImport }) => mayImport.filter((entry) => expand(entry).length === 0).map((entry) => `${room} -> ${entry}`))
    expect(unknown).toEqual([])
  })

  it("is kept by every file: each relative import lands in its own room or one its room may import", () => {
    expect(arrows.filter(({ from, to }) => !allows(from, to!)).map(({ file, spec }) => `${file}: ${spec}`)).toEqual([])
  })

  it("allows no arrow the code does not use (an unused permission is drift too; every adapter may use the core)", () => {
    const unused = ROOMS.flatMap(({ room, mayImport }) =>
      mayImport
        .filter((entry) => !(entry === "src/**" && room.startsWith("adapters/")))
        .filter((entry) => !arrows.some(({ from, to }) => from === room && expand(entry).includes(to!)))
        .map((entry) => `${room} -> ${entry}`)
    )
    expect(unused, "take the arrow out of lint/rooms.js").toEqual([])
  })

  it("goes one way: no room reaches itself through the arrows it allows", () => {
    const next = new Map(ROOMS.map(({ room, mayImport }) => [room, mayImport.flatMap(expand).filter((to) => to !== room)]))
    const cycles: Array<string> = []
    const visit = (room: string, path: ReadonlyArray<string>): void => {
      if (path.includes(room)) return void cycles.push([...path.slice(path.indexOf(room)), room].join(" -> "))
      for (const to of next.get(room) ?? []) visit(to, [...path, room])
    }
    for (const room of names) visit(room, [])
    expect(cycles).toEqual([])
  })
})

describe("the rooms/one-way lint rule", () => {
  const lint = async (filePath: string, code: string) => {
    const [result] = await new ESLint().lintText(code, { filePath })
    return result!.messages.filter((m) => m.ruleId === "rooms/one-way").map((m) => m.message)
  }
  /** A module importing a file of each room in `to` from a file of room `from`. */
  const importing = (from: string, to: ReadonlyArray<string>) =>
    to.map((room, i) => {
      const spec = relative(from, `${room}/Probe.js`)
      return `import * as Probe${i} from "${spec.startsWith(".") ? spec : `./${spec}`}"\nexport { Probe${i} }\n`
    }).join("")

  it.each(ROOMS.map(({ room }) => room))("refuses from %s what the table refuses, and lets it import what the table allows", async (room) => {
    const refused = names.find((other) => other !== room && !allows(room, other))
    if (refused !== undefined) {
      const messages = await lint(`${room}/Probe.ts`, importing(room, [refused]))
      expect(messages).toEqual([`${room} must not import ${refused}: rooms import one way (the table in lint/rooms.js and docs/internals/architecture.md).`])
    }
    expect(await lint(`${room}/Probe.ts`, importing(room, ROOMS.find((row) => row.room === room)!.mayImport.flatMap(expand)))).toEqual([])
  })

  it.each([
    ["api", 'import { EvaluationLane } from "../lane/EvaluationLane.js"', "adapters/http/lane"],
    ["api", 'import * as App from "../serving/App.js"', "adapters/http/serving"],
    ["api", 'import * as Routes from "../signin/OidcRoutes.js"', "adapters/http/signin"],
    ["lane", 'import { FlagportApi } from "../api/Api.js"', "adapters/http/api"],
    ["lane", 'import { FlagportApi } from "../../http/api/Api.js"', "adapters/http/api"],
    ["shared", 'import { EvaluationLane } from "../lane/EvaluationLane.js"', "adapters/http/lane"],
    ["shared", 'import * as Routes from "../signin/OidcRoutes.js"', "adapters/http/signin"],
    ["signin", 'import { FlagportApi } from "../api/Api.js"', "adapters/http/api"],
    ["signin", 'import * as App from "../serving/App.js"', "adapters/http/serving"],
    ["api/flags", 'import { EvaluationLane } from "../../lane/EvaluationLane.js"', "adapters/http/lane"],
    ["api/people", 'import * as Routes from "../../signin/OidcRoutes.js"', "adapters/http/signin"],
    ["api/evaluation", 'import * as App from "../../serving/App.js"', "adapters/http/serving"]
  ])("keeps the HTTP rooms apart: %s may not %s", async (room, code, what) => {
    const messages = await lint(`adapters/http/${room}/Probe.ts`, `${code}\nexport {}\n`)
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain(`must not import ${what}:`)
  })

  it("checks type-only imports, re-exports and import() alike, from a room's folders too", async () => {
    expect(await lint("adapters/http/api/Probe.ts", 'import type { Lane } from "../lane/EvaluationLane.js"\nexport type { Lane }\n')).toHaveLength(1)
    expect(await lint("adapters/http/api/Probe.ts", 'export * from "../serving/App.js"\n')).toHaveLength(1)
    expect(await lint("adapters/http/api/Probe.ts", 'export const app = () => import("../serving/App.js")\n')).toHaveLength(1)
    expect(await lint("adapters/http/api/Probe.ts", 'export type Lane = import("../lane/EvaluationLane.js").EvaluationLane\n')).toHaveLength(1)
    expect(await lint("adapters/sql/migrations/Probe.ts", 'import * as Ports from "../../storage/Ports.js"\nexport { Ports }\n')).toHaveLength(1)
    expect(await lint("adapters/sql/migrations/Probe.ts", 'import * as M from "../Migrations.js"\nexport { M }\n')).toEqual([])
    expect(await lint("adapters/http/api/flags/Probe.ts", 'import * as Errors from "../../shared/Errors.js"\nimport { FlagportApi } from "../Api.js"\nexport { Errors, FlagportApi }\n')).toEqual([])
  })
})
