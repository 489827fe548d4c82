import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { ESLint } from "eslint"
import { describe, expect, it } from "vitest"

/**
 * The rooms of the HTTP adapter import one way: serving -> (api | fast | signin) -> shared -> core. The
 * rule lives in eslint.config.js; this proves it rejects what it must, and that the files as they
 * stand keep the direction (whether or not anyone ran the linter).
 */
const HTTP = resolve(__dirname, "../../adapters/http")
const ROOMS = ["shared", "api", "fast", "signin", "serving"] as const
type Room = (typeof ROOMS)[number]

/** Which rooms each room may import (besides itself). */
const ALLOWED: Record<Room, ReadonlyArray<Room>> = {
  shared: [],
  api: ["shared"],
  fast: ["shared"],
  signin: ["shared"],
  serving: ["shared", "api", "fast", "signin"]
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
    ["api", 'import { Lane } from "../fast/Lane.js"', "adapters/http/fast"],
    ["api", 'import * as App from "../serving/App.js"', "adapters/http/serving"],
    ["fast", 'import { FlagportApi } from "../api/Api.js"', "adapters/http/api"],
    ["fast", 'import { FlagportApi } from "../../http/api/Api.js"', "adapters/http/api"],
    ["shared", 'import { Lane } from "../fast/Lane.js"', "adapters/http/fast"],
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

  it("the lint rule lets api and fast use shared, and serving use every room", async () => {
    const shared = 'import * as Errors from "../shared/Errors.js"\nexport { Errors }\n'
    expect(await lint("adapters/http/api/Probe.ts", shared)).toEqual([])
    expect(await lint("adapters/http/fast/Probe.ts", shared)).toEqual([])
    expect(await lint("adapters/http/signin/Probe.ts", shared)).toEqual([])
    const all = 'import { FlagportApi } from "../api/Api.js"\nimport { Lane } from "../fast/Lane.js"\nimport * as Routes from "../signin/OidcRoutes.js"\nexport { FlagportApi, Lane, Routes }\n'
    expect(await lint("adapters/http/serving/Probe.ts", all)).toEqual([])
  })
})
