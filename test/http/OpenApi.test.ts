/**
 * GET /openapi.json: generated from the API, equal to the golden docs/openapi.json (regenerate
 * with UPDATE_GOLDEN=1 after a deliberate API change), accepted by a real OpenAPI validator,
 * declaring bearerAuth and the session cookie and every path, with our envelope as the only error schema.
 * GET /docs: an interactive page that needs no network.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { Validator } from "@seriousme/openapi-schema-validator"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { request, startServer, type TestServer } from "./fixtures.js"

const GOLDEN = new URL("../../docs/openapi.json", import.meta.url)

let t: TestServer
let spec: Record<string, any>
beforeAll(async () => {
  t = await startServer()
  spec = (await request(t.url, "GET", "/openapi.json")).body as Record<string, any>
  if (process.env["UPDATE_GOLDEN"] === "1") writeFileSync(GOLDEN, JSON.stringify(spec, null, 2) + "\n")
})
afterAll(async () => {
  await t?.close()
})

const PATHS = [
  "/health",
  "/v1/projects/{projectId}/change-requests",
  "/v1/projects/{projectId}/change-requests/{changeRequestId}",
  "/v1/projects/{projectId}/change-requests/{changeRequestId}/approve",
  "/v1/projects/{projectId}/change-requests/{changeRequestId}/reject",
  "/v1/projects/{projectId}/change-requests/{changeRequestId}/cancel",
  "/v1/projects/{projectId}/change-requests/{changeRequestId}/apply",
  "/v1/projects/{projectId}/experiments",
  "/v1/projects/{projectId}/experiments/{experimentKey}",
  "/v1/projects/{projectId}/experiments/{experimentKey}/results",
  "/v1/projects/{projectId}/experiments/{experimentKey}/start",
  "/v1/projects/{projectId}/experiments/{experimentKey}/stop",
  "/v1/projects/{projectId}/experiments/{experimentKey}/units.csv",
  "/v1/projects/{projectId}/flags/{flagKey}/release-plans",
  "/v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}",
  "/v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}/start",
  "/v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}/pause",
  "/v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}/resume",
  "/v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}/cancel",
  // Beyond the contract: the guardrails' figures now, for the dashboard.
  "/v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}/guardrails",
  "/v1/exposures",
  "/v1/track",
  "/v1/projects",
  "/v1/projects/{projectId}/environments",
  "/v1/projects/{projectId}/environments/{environmentKey}",
  "/v1/projects/{projectId}/environments/{environmentKey}/copy",
  "/v1/projects/{projectId}/flags",
  "/v1/projects/{projectId}/flags/{flagKey}",
  "/v1/projects/{projectId}/flags/{flagKey}/targeting",
  "/v1/projects/{projectId}/flags/{flagKey}/schedules",
  "/v1/projects/{projectId}/schedules",
  "/v1/projects/{projectId}/flags/{flagKey}/schedules/{scheduleId}",
  "/v1/projects/{projectId}/keys",
  "/v1/projects/{projectId}/keys/{keyId}",
  "/v1/projects/{projectId}/segments",
  "/v1/projects/{projectId}/segments/{segmentKey}",
  "/v1/projects/{projectId}/segments/{segmentKey}/keys",
  "/v1/projects/{projectId}/segments/{segmentKey}/keys/{list}",
  "/v1/projects/{projectId}/webhooks",
  "/v1/projects/{projectId}/webhooks/{webhookId}",
  "/v1/projects/{projectId}/webhooks/{webhookId}/deliveries",
  "/v1/projects/{projectId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
  "/v1/evaluate",
  "/v1/explain",
  "/v1/flags/{flagKey}/eval",
  "/v1/config",
  "/v1/config/segments/{segmentKey}/{list}",
  "/ofrep/v1/evaluate/flags/{key}",
  "/ofrep/v1/evaluate/flags",
  "/v1/stream",
  // Evaluation insights.
  "/v1/insights",
  "/v1/projects/{projectId}/flags/{flagKey}/insights",
  // Typed code generation.
  "/v1/projects/{projectId}/codegen/typescript",
  // Flags as code.
  "/v1/projects/{projectId}/export",
  "/v1/projects/{projectId}/apply",
  "/v1/projects/{projectId}/import/flagd",
  "/schemas/project-file.json",
  // The audit log.
  "/v1/projects/{projectId}/audit",
  "/v1/projects/{projectId}/events",
  // People.
  "/v1/auth/login",
  "/v1/auth/logout",
  "/v1/auth/setup",
  "/v1/auth/providers",
  "/v1/me",
  "/v1/users",
  "/v1/users/{id}",
  "/v1/users/{id}/reset-password",
  "/v1/users/{id}/unlock",
  "/v1/users/{id}/allow-sso-link",
  "/v1/projects/{projectId}/members",
  "/v1/projects/{projectId}/members/{userId}"
]

/** The routes a person's session may call (besides keys): management and users, not evaluation. */
const takesSession = (path: string) => path.startsWith("/v1/projects") || path.startsWith("/v1/users")

describe("GET /openapi.json", () => {
  it("equals the golden docs/openapi.json", () => {
    expect(spec).toEqual(JSON.parse(readFileSync(GOLDEN, "utf8")))
  })
  it("is accepted by an OpenAPI validator", async () => {
    const result = await new Validator().validate(spec as never)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
  })
  it("declares bearerAuth on every /v1 and /ofrep operation, the session cookie beside it on management ones, none on the service and sign-in endpoints", () => {
    expect(Object.keys(spec.components.securitySchemes)).toEqual(["bearerAuth", "sessionCookie"])
    expect(spec.components.securitySchemes.bearerAuth).toEqual({ type: "http", scheme: "bearer" })
    expect(spec.components.securitySchemes.sessionCookie).toMatchObject({ type: "apiKey", in: "cookie", name: "flagport_session" })
    for (const [path, item] of Object.entries(spec.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(item)) {
        // GET /v1/stream also opens with a stream token in the query instead of the header (`{}`).
        const v1 = path === "/v1/stream" ? [{ bearerAuth: [] }, {}] : takesSession(path) ? [{ bearerAuth: [] }, { sessionCookie: [] }] : [{ bearerAuth: [] }]
        const expected = path === "/v1/me" ? [{ sessionCookie: [] }] : path.startsWith("/v1/auth/") ? [] : path.startsWith("/v1") || path.startsWith("/ofrep") ? v1 : []
        expect(operation.security, path).toEqual(expected)
      }
    }
  })
  it("has every path of the specification and the contract", () => {
    expect(Object.keys(spec.paths).sort()).toEqual([...PATHS].sort())
  })
  it("shows our envelope as the only error schema (no built-in decode error)", () => {
    const text = JSON.stringify(spec)
    expect(text).not.toContain("HttpApiDecodeError")
    const badRequest = spec.paths["/v1/projects/{projectId}/flags"].post.responses["400"].content["application/json"].schema
    expect(badRequest).toEqual({ $ref: "#/components/schemas/BadRequest" })
    expect(spec.components.schemas.BadRequest.properties.error.properties.code).toEqual({ type: "string", enum: ["invalid_request"] })
    const statuses = Object.keys(spec.paths["/v1/projects/{projectId}/flags"].post.responses).sort()
    expect(statuses).toEqual(["201", "400", "401", "403", "404", "409", "413", "415", "431", "500"])
    expect(Object.keys(spec.paths["/v1/config"].get.responses)).toContain("304")
    expect(Object.keys(spec.paths["/health"].get.responses)).toContain("503")
  })
  it("lists only the error statuses each operation can return", () => {
    const operations = Object.entries(spec.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, statuses: Object.keys(operation.responses) }))
    )
    const answering = (status: string) => operations.filter((o) => o.statuses.includes(status)).map((o) => o.name).sort()
    // No input and no credentials: only the 431 that node's parser answers before any route.
    expect(Object.keys(spec.paths["/health"].get.responses).sort()).toEqual(["200", "431", "500", "503"])
    // 404: every operation on a project's resources (or a project a person is not a member of) and every evaluation or SDK
    // report (unknown project or environment), a user named by id, an invitation to an unknown project.
    // OFREP answers an unknown environment 400 INVALID_CONTEXT; its single-flag route's 404 is FLAG_NOT_FOUND.
    const envelope404 = operations.map((o) => o.name).filter((name) =>
      !name.includes("/ofrep/") && (name.includes("{projectId}") || name.includes("{id}") || /\/v1\/(evaluate|flags|config|stream|insights|explain|exposures|track)/.test(name)))
    expect(answering("404")).toEqual([...envelope404, "POST /ofrep/v1/evaluate/flags/{key}", "POST /v1/users"].sort())
    // 429: too many open streams, too many failed sign-ins, too many sign-in attempts from one client address, a key past its
    // hourly budget of exposures and metric events.
    expect(answering("429")).toEqual(["GET /v1/projects/{projectId}/events", "GET /v1/stream", "POST /v1/auth/login", "POST /v1/auth/setup", "POST /v1/exposures", "POST /v1/track"])
    // No credentials: only the 431 that node's parser answers, and the 500.
    expect(Object.keys(spec.paths["/v1/auth/providers"].get.responses).sort()).toEqual(["200", "431", "500"])
    // 409: a duplicate key, a reference still in use (a segment, a variation, a flag required as a prerequisite), a redelivery while pending, a key revoking itself,
    // cancelling a schedule that is no longer pending, a webhook over the project's cap; `change_request_required`: a person's
    // targeting, schedule or copy into a protected environment, or a flag deleted, a variation rewritten or a segment changed that
    // such an environment serves; a change request closed, approved twice, or whose flags moved on.
    expect(answering("409")).toEqual([
      "POST /v1/projects/{projectId}/change-requests",
      "PUT /v1/projects/{projectId}/change-requests/{changeRequestId}",
      "POST /v1/projects/{projectId}/change-requests/{changeRequestId}/approve",
      "POST /v1/projects/{projectId}/change-requests/{changeRequestId}/reject",
      "POST /v1/projects/{projectId}/change-requests/{changeRequestId}/cancel",
      "POST /v1/projects/{projectId}/change-requests/{changeRequestId}/apply",
      // An experiment's key taken, its fixed fields changed once started, started twice, stopped
      // when not running, deleted while running.
      "POST /v1/projects/{projectId}/experiments",
      "PATCH /v1/projects/{projectId}/experiments/{experimentKey}",
      "DELETE /v1/projects/{projectId}/experiments/{experimentKey}",
      "POST /v1/projects/{projectId}/experiments/{experimentKey}/start",
      "POST /v1/projects/{projectId}/experiments/{experimentKey}/stop",
      "POST /v1/projects/{projectId}/flags/{flagKey}/release-plans",
      "PATCH /v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}",
      "DELETE /v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}",
      "POST /v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}/start",
      "POST /v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}/pause",
      "POST /v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}/resume",
      "POST /v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}/cancel",
      "DELETE /v1/projects/{projectId}/flags/{flagKey}",
      "DELETE /v1/projects/{projectId}/flags/{flagKey}/schedules/{scheduleId}",
      "DELETE /v1/projects/{projectId}/keys/{keyId}",
      "DELETE /v1/projects/{projectId}/segments/{segmentKey}",
      "PATCH /v1/projects/{projectId}/flags/{flagKey}",
      "PATCH /v1/projects/{projectId}/segments/{segmentKey}",
      // A segment's key list changed by a person while a protected environment serves the segment.
      "PATCH /v1/projects/{projectId}/segments/{segmentKey}/keys/{list}",
      "PUT /v1/projects/{projectId}/segments/{segmentKey}/keys/{list}",
      // A new requiredApprovals recounting a change request that kept changing meanwhile.
      "PATCH /v1/projects/{projectId}/environments/{environmentKey}",
      "POST /v1/projects",
      "POST /v1/projects/{projectId}/environments",
      "POST /v1/projects/{projectId}/environments/{environmentKey}/copy",
      "POST /v1/projects/{projectId}/flags",
      "POST /v1/projects/{projectId}/flags/{flagKey}/schedules",
      "POST /v1/projects/{projectId}/segments",
      "POST /v1/projects/{projectId}/webhooks",
      "POST /v1/projects/{projectId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
      "PUT /v1/projects/{projectId}/flags/{flagKey}/targeting",
      // An apply whose project changed while it was applied, or one of its changes refused as the API would.
      "POST /v1/projects/{projectId}/apply",
      // A flagd import's flag created meanwhile by someone else under a key of the file.
      "POST /v1/projects/{projectId}/import/flagd",
      // An email taken; a global admin removing their own admin flag or disabling themselves.
      "PATCH /v1/users/{id}",
      "POST /v1/users",
      // A single sign-on link allowed for an account at localhost, which is never linked.
      "POST /v1/users/{id}/allow-sso-link"
    ].sort())
    // 500 everywhere: any unexpected failure is logged and answered 500; 431 everywhere: node refuses
    // a request line or headers over 16 KB before routing (test/http/ClientErrors.test.ts), except
    // on OFREP's operations, which list OFREP's bodies only.
    expect(answering("500")).toEqual(operations.map((o) => o.name).sort())
    expect(answering("431")).toEqual(operations.map((o) => o.name).filter((name) => !name.includes("/ofrep/")).sort())
  })
})

describe("the OFREP routes", () => {
  it("are under their own tag, with OFREP's bodies only (not the envelope) and the bulk ETag", () => {
    const single = spec.paths["/ofrep/v1/evaluate/flags/{key}"].post
    const bulk = spec.paths["/ofrep/v1/evaluate/flags"].post
    expect(single.tags).toEqual(["OFREP"])
    expect(bulk.tags).toEqual(["OFREP"])
    expect(spec.tags.map((t: { name: string }) => t.name)).toContain("OFREP")
    const refOf = (operation: any, status: string) => operation.responses[status].content?.["application/json"]?.schema?.$ref
    expect(Object.keys(single.responses).sort()).toEqual(["200", "400", "401", "403", "404", "413", "500"])
    expect(refOf(single, "200")).toBe("#/components/schemas/OfrepEvaluationSuccess")
    expect(refOf(single, "400")).toBe("#/components/schemas/OfrepEvaluationFailure")
    expect(refOf(single, "404")).toBe("#/components/schemas/OfrepFlagNotFound")
    expect(Object.keys(bulk.responses).sort()).toEqual(["200", "304", "400", "401", "403", "413", "500"])
    expect(refOf(bulk, "200")).toBe("#/components/schemas/OfrepBulkSuccess")
    expect(refOf(bulk, "400")).toBe("#/components/schemas/OfrepBulkFailure")
    expect(Object.keys(bulk.responses["304"].headers)).toEqual(["ETag"])
    expect(JSON.stringify([single, bulk])).not.toContain("#/components/schemas/BadRequest")
  })
})

describe("what tools need from the document", () => {
  it("passes Redocly's recommended rules with no error, no warning and nothing ignored", async () => {
    // In an empty directory, so no configuration or ignore file of any checkout can soften the rules.
    const dir = mkdtempSync(join(tmpdir(), "flagport-redocly-"))
    try {
      writeFileSync(join(dir, "openapi.json"), JSON.stringify(spec))
      const bin = new URL("../../node_modules/.bin/redocly", import.meta.url).pathname
      // Exits non-zero on errors; the JSON report is on stdout either way.
      const { stdout } = await promisify(execFile)(bin, ["lint", "openapi.json", "--format=json"], { cwd: dir, timeout: 60_000 }).catch(
        (error: { stdout: string }) => ({ stdout: error.stdout })
      )
      const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number; ignored: number }; problems: Array<unknown> }
      expect(report.problems).toEqual([])
      expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 90_000)
  it("gives every operation a summary and a description, and every tag a description", () => {
    for (const [path, item] of Object.entries(spec.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.summary, `${method} ${path}`).toMatch(/\S/)
        expect(operation.description, `${method} ${path}`).toMatch(/\S/)
      }
    }
    for (const tag of spec.tags) expect(tag.description, tag.name).toMatch(/\S/)
  })
  it("names a component schema for every resource, and the operations refer to them", () => {
    const names = Object.keys(spec.components.schemas)
    for (const name of ["Project", "Environment", "Flag", "Variation", "Targeting", "Rule", "Rollout", "Condition", "Segment", "Webhook", "Delivery", "WebhookEvent", "EvaluationResult", "ConfigSnapshot", "EvaluateRequest", "EvaluateResponse", "FlagWithUsage", "InsightsReport", "InsightsSeries"]) {
      expect(names).toContain(name)
    }
    const flags = spec.paths["/v1/projects/{projectId}/flags/{flagKey}"]
    expect(flags.get.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/FlagWithUsage" })
    expect(spec.components.schemas.Targeting.properties.rules.items).toEqual({ $ref: "#/components/schemas/Rule" })
  })
  it("says a rule serves exactly one of variationKey and rollout", () => {
    for (const name of ["Rule", "RuleInput"]) {
      expect(spec.components.schemas[name].oneOf).toEqual([
        expect.objectContaining({ required: ["variationKey"] }),
        expect.objectContaining({ required: ["rollout"] })
      ])
    }
  })
  it("declares the ETag of GET /v1/config on the 200 and the 304", () => {
    const responses = spec.paths["/v1/config"].get.responses
    expect(responses["200"].headers.ETag.schema).toEqual({ type: "string" })
    expect(responses["304"].headers.ETag.schema).toEqual({ type: "string" })
  })
  it("describes each webhook event's payload under OpenAPI 3.1 webhooks", () => {
    expect(Object.keys(spec.webhooks).sort()).toEqual([
      "change_request.applied",
      "change_request.approved",
      "change_request.opened",
      "change_request.rejected",
      "experiment.started",
      "experiment.stopped",
      "flag.created",
      "flag.deleted",
      "flag.updated",
      "release_plan.advanced",
      "release_plan.cancelled",
      "release_plan.completed",
      "release_plan.harmed",
      "release_plan.paused",
      "release_plan.started",
      "targeting.updated"
    ])
    const created = spec.webhooks["flag.created"].post
    expect(created.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/WebhookEvent" })
    expect(created.parameters.map((p: { name: string }) => p.name)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"])
    // A flag's event carries the flag, a change request's the request as recorded (approvals as
    // given: whether each still counts is judged in the API's answers, never frozen into an event).
    const [flagData, requestData] = spec.components.schemas.WebhookEvent.properties.data.anyOf
    expect(flagData.properties.flag).toEqual({ $ref: "#/components/schemas/Flag" })
    expect(requestData.properties.changeRequest).toEqual({ $ref: "#/components/schemas/ChangeRequestRecord" })
    expect(spec.components.schemas.ChangeRequestRecord.required).not.toContain("countingApprovals")
    expect(spec.components.schemas.ChangeRequest.required).toContain("countingApprovals")
  })
})

describe("GET /docs", () => {
  it("is an interactive page with everything inlined (no network needed)", async () => {
    const reply = await request(t.url, "GET", "/docs")
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toContain("text/html")
    expect(reply.text).toContain("<script")
    expect(reply.text).not.toMatch(/<script[^>]+src=["']https?:/)
    expect(reply.text).not.toMatch(/<link[^>]+href=["']https?:/)
    expect(reply.text.length).toBeGreaterThan(100_000)
  })
})
