import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { ESLint } from "eslint"
import { describe, expect, it } from "vitest"

/**
 * The rooms of the HTTP adapter import one way: serving -> (api | lane | signin) -> shared -> core. The
 * rule lives in eslint.config.js; this proves it rejects what it must, and that the files as they
 * stand keep the direction (whether or not anyone ran the linter).
 */
const HTTP = resolve(__dirname, "../../adapters/http")
const ROOMS = ["shared", "api", "lane", "signin", "serving"] as const
type Room = (typeof ROOMS)[number]

/** Which rooms each room may import (besides itself). */
const ALLOWED: Record<Room, ReadonlyArray<Room>> = {
  shared: [],
  api: ["shared"],
  lane: ["shared"],
  signin: ["shared"],
  serving: ["shared", "api", "lane", "signin"]
}

const lint = async (filePath: string, code: string) => {
  const [result] = await new ESLint().lintText(code, { filePath })
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message)
}

const filesOf = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesOf(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  )

/** The room a resolved path lies in, if it is inside adapters/http. */
const roomOf = (path: string): Room | "outside" => {
  const inside = relative(HTTP, path)
  const first = inside.split("/")[0]
  return (ROOMS as ReadonlyArray<string>).includes(first) && !inside.startsWith("..") ? (first as Room) : "outside"
}

const importsOf = (file: string): Array<string> =>
  [...readFileSync(file, "utf8").matchAll(/^(?:import|export)[^"']*?from\s+["']([^"']+)["']/gm)].map((m) => m[1]!)

describe("HTTP rooms", () => {
  it("every file of adapters/http lies in a room", () => {
    expect(filesOf(HTTP).filter((file) => roomOf(file) === "outside").map((file) => relative(HTTP, file))).toEqual([])
  })

  it.each(ROOMS)("%s imports only the rooms below it", (room) => {
    const crossings = filesOf(join(HTTP, room)).flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.startsWith("."))
        .map((spec) => ({ file: relative(HTTP, file), spec, target: roomOf(resolve(dirname(file), spec)) }))
        .filter(({ target }) => target !== "outside" && target !== room && !ALLOWED[room].includes(target))
    )
    expect(crossings).toEqual([])
  })

  it.each([
    ["api", 'import { EvaluationLane } from "../lane/EvaluationLane.js"', "adapters/http/lane"],
    ["api", 'import * as App from "../serving/App.js"', "adapters/http/serving"],
    ["lane", 'import { FlagportApi } from "../api/Api.js"', "adapters/http/api"],
    ["lane", 'import { FlagportApi } from "../../http/api/Api.js"', "adapters/http/api"],
    ["shared", 'import { EvaluationLane } from "../lane/EvaluationLane.js"', "adapters/http/lane"],
    ["shared", 'import { FlagportApi } from "../api/Api.js"', "adapters/http/api"],
    ["signin", 'import { FlagportApi } from "../api/Api.js"', "adapters/http/api"],
    ["signin", 'import * as App from "../serving/App.js"', "adapters/http/serving"],
    ["api", 'import * as Routes from "../signin/OidcRoutes.js"', "adapters/http/signin"],
    ["shared", 'import * as Routes from "../signin/OidcRoutes.js"', "adapters/http/signin"]
  ])("the lint rule refuses %s: %s", async (room, code, what) => {
    const messages = await lint(`adapters/http/${room}/Probe.ts`, `${code}\nexport {}\n`)
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain(what)
  })

  it.each([
    ["api/flags", 'import { EvaluationLane } from "../../lane/EvaluationLane.js"', "adapters/http/lane"],
    ["api/people", 'import * as Routes from "../../signin/OidcRoutes.js"', "adapters/http/signin"],
    ["api/evaluation", 'import * as App from "../../serving/App.js"', "adapters/http/serving"]
  ])("the lint rule refuses %s (a room's sub-folder): %s", async (folder, code, what) => {
    const messages = await lint(`adapters/http/${folder}/Probe.ts`, `${code}\nexport {}\n`)
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain(what)
  })

  it("the lint rule lets api and lane use shared, and serving use every room", async () => {
    const shared = 'import * as Errors from "../shared/Errors.js"\nexport { Errors }\n'
    expect(await lint("adapters/http/api/Probe.ts", shared)).toEqual([])
    expect(await lint("adapters/http/api/flags/Probe.ts", 'import * as Errors from "../../shared/Errors.js"\nimport { FlagportApi } from "../Api.js"\nexport { Errors, FlagportApi }\n')).toEqual([])
    expect(await lint("adapters/http/lane/Probe.ts", shared)).toEqual([])
    expect(await lint("adapters/http/signin/Probe.ts", shared)).toEqual([])
    const all = 'import { FlagportApi } from "../api/Api.js"\nimport { EvaluationLane } from "../lane/EvaluationLane.js"\nimport * as Routes from "../signin/OidcRoutes.js"\nexport { FlagportApi, EvaluationLane, Routes }\n'
    expect(await lint("adapters/http/serving/Probe.ts", all)).toEqual([])
  })
})
