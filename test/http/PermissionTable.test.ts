/**
 * The one table of who may do what (src/domain/auth/Permissions.ts) against the use cases: every
 * row is asked for by the use case it names (`authorize("Service.method", ...)` in src/services),
 * so no row is a decision nobody makes; and every management route reaches a use case that decides
 * (the authorization matrix, ../http/authorization.ts, proves the answers route by route).
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { OPERATIONS } from "../../src/domain/auth/Permissions.js"

const SERVICES = join(import.meta.dirname, "../../src/services")

const sources = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [readFileSync(join(dir, entry.name), "utf8")] : [])

describe("the table of who may do what", () => {
  it("has no row that no use case asks for", () => {
    const text = sources(SERVICES).join("\n")
    // The span of each use case bears the same name: only a decision's call counts.
    const asked = new Set([...text.matchAll(/\b(?:authorize|authorizeGlobal|allowedOn)\("([A-Za-z]+\.[A-Za-z]+)"/g)].map((match) => match[1]!))
    expect(Object.keys(OPERATIONS).filter((operation) => !asked.has(operation))).toEqual([])
  })
})
