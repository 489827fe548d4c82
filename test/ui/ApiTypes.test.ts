/**
 * The dashboard's types are the API's: ui/lib/types.ts names the types that scripts/api-types.ts
 * generates from docs/openapi.json (the golden copy of the served document), so a change to the API
 * breaks the dashboard's type check. This holds the generated file to the document: after a
 * deliberate API change (UPDATE_GOLDEN=1 for test/http/OpenApi.test.ts), `npm run api-types`.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { apiTypes, OUTPUT } from "../../scripts/api-types.js"

describe("ui/lib/api-types.ts", () => {
  it("is generated from the current docs/openapi.json", async () => {
    expect(readFileSync(OUTPUT, "utf8"), "ui/lib/api-types.ts is stale: run `npm run api-types`").toBe(await apiTypes())
  }, 60_000)
})
