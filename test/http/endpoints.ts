/**
 * Every endpoint's success and the contract's error cases, through the standalone server over
 * HTTP, as one suite run on each SQL backend (Endpoints.test.ts: SQLite, EndpointsPg.test.ts:
 * PostgreSQL). The cases live in endpoints/, one file per resource, and run in the order below
 * against one server (later cases build on the data of earlier ones). The error bodies of both
 * backends are compared with one golden file (test/http/golden/error-bodies.json; regenerate with
 * UPDATE_GOLDEN=1 after a deliberate change), and every answer's status must be one that the
 * OpenAPI document declares for its operation.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshStorage } from "../fixtures/databases.js"
import { declaredStatuses } from "./declared.js"
import { auditLog } from "./endpoints/audit.js"
import { environmentCopy, environments } from "./endpoints/environments.js"
import { evaluation, streams } from "./endpoints/evaluation.js"
import { flags, optimisticConcurrency } from "./endpoints/flags.js"
import { makeEndpoints } from "./endpoints/harness.js"
import { insights } from "./endpoints/insights.js"
import { keys } from "./endpoints/keys.js"
import { prerequisites } from "./endpoints/prerequisites.js"
import { projects } from "./endpoints/projects.js"
import { schedules } from "./endpoints/schedules.js"
import { segmentKeys } from "./endpoints/segmentKeys.js"
import { segments } from "./endpoints/segments.js"
import { nulCharacter, transportErrors } from "./endpoints/transport.js"
import { webhooks } from "./endpoints/webhooks.js"
import { request as send, startServer, type TestServer } from "./fixtures.js"

export const endpointSuite = (backend: "sqlite" | "postgres"): void => {
  describe(backend, () => {
    const GOLDEN = new URL("./golden/error-bodies.json", import.meta.url)
    let t: TestServer
    const endpoints = makeEndpoints(() => t)
    const { answered, goldenBodies } = endpoints

    beforeAll(async () => {
      t = await startServer(freshStorage(backend))
    })
    afterAll(async () => {
      await t?.close()
      const expected = JSON.stringify(goldenBodies, null, 2) + "\n"
      // Both backends must give the same bodies; SQLite writes the file when asked to regenerate it.
      if (process.env["UPDATE_GOLDEN"] === "1" && backend === "sqlite") writeFileSync(GOLDEN, expected)
    })

    projects(endpoints)
    environments(endpoints)
    flags(endpoints)
    optimisticConcurrency(endpoints)
    environmentCopy(endpoints)
    segments(endpoints)
    segmentKeys(endpoints)
    webhooks(endpoints)
    keys(endpoints)
    evaluation(endpoints)
    transportErrors(endpoints)
    nulCharacter(endpoints)
    schedules(endpoints)
    streams(endpoints)
    insights(endpoints)
    auditLog(endpoints)
    prerequisites(endpoints)

    describe("golden error bodies", () => {
      it("match test/http/golden/error-bodies.json", async () => {
        // Runs last in this file: every error body recorded above must equal the golden one.
        const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as Record<string, unknown>
        expect(Object.keys(goldenBodies).length).toBeGreaterThan(30)
        if (process.env["UPDATE_GOLDEN"] !== "1") expect(goldenBodies).toEqual(golden)
      })
    })

    describe("the OpenAPI document", () => {
      it("declares every status answered above for its operation", async () => {
        // Runs after the error cases above; unknown routes and methods belong to no operation.
        const spec = (await send(t.url, "GET", "/openapi.json")).body as Parameters<typeof declaredStatuses>[0]
        const undeclared = new Set<string>()
        for (const { method, path, status } of answered) {
          const declared = declaredStatuses(spec, method, path)
          if (declared !== undefined && !declared.statuses.includes(String(status))) undeclared.add(`${declared.operation}: ${status}`)
        }
        expect(answered.length).toBeGreaterThan(100)
        expect([...undeclared]).toEqual([])
      })
    })
  })
}
