/**
 * The request examples of the served OpenAPI document (what `/docs` puts in its try-it bodies)
 * are accepted by a real server: each is taken from the document and sent, in the order of the
 * story they tell, and each answers the operation's success status with a body of the shape of
 * the response example.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { request, startServer, type TestServer } from "./fixtures.js"
import { makePerson, type Person, sessionCookieOf } from "./people.js"

let t: TestServer
let spec: Record<string, any>
/** A global administrator: members and approvals are people's, never a key's. */
let ada: Person
beforeAll(async () => {
  t = await startServer()
  ada = await t.run(makePerson("ada@example.com", { admin: true }))
  spec = (await request(t.url, "GET", "/openapi.json")).body as Record<string, any>
})
afterAll(async () => {
  await t?.close()
})

/** Every operation with a request body, in story order, with the path parameters it needs. */
const STORY: ReadonlyArray<readonly [method: string, template: string, params: Record<string, string>]> = [
  ["post", "/v1/projects", {}],
  ["post", "/v1/projects/{projectId}/environments", { projectId: "shop" }],
  ["post", "/v1/projects/{projectId}/flags", { projectId: "shop" }],
  ["patch", "/v1/projects/{projectId}/flags/{flagKey}", { projectId: "shop", flagKey: "new-checkout" }],
  ["put", "/v1/projects/{projectId}/flags/{flagKey}/targeting", { projectId: "shop", flagKey: "new-checkout" }],
  ["post", "/v1/projects/{projectId}/flags/{flagKey}/schedules", { projectId: "shop", flagKey: "new-checkout" }],
  ["post", "/v1/projects/{projectId}/segments", { projectId: "shop" }],
  ["patch", "/v1/projects/{projectId}/segments/{segmentKey}", { projectId: "shop", segmentKey: "staff" }],
  // The segment's included keys: uploaded as text (the document's text/plain example), then changed.
  ["put", "/v1/projects/{projectId}/segments/{segmentKey}/keys/{list}", { projectId: "shop", segmentKey: "staff", list: "included" }],
  ["patch", "/v1/projects/{projectId}/segments/{segmentKey}/keys/{list}", { projectId: "shop", segmentKey: "staff", list: "included" }],
  ["post", "/v1/projects/{projectId}/webhooks", { projectId: "shop" }],
  ["patch", "/v1/projects/{projectId}/webhooks/{webhookId}", { projectId: "shop" }],
  ["post", "/v1/evaluate", {}],
  ["post", "/ofrep/v1/evaluate/flags/{key}", { key: "new-checkout" }],
  ["post", "/ofrep/v1/evaluate/flags", {}],
  ["post", "/v1/insights", {}],
  ["post", "/v1/explain", {}],
  // An experiment on the targeting's rollout rule: made, renamed, (started and) stopped with a decision.
  ["post", "/v1/projects/{projectId}/experiments", { projectId: "shop" }],
  ["patch", "/v1/projects/{projectId}/experiments/{experimentKey}", { projectId: "shop", experimentKey: "checkout-redesign" }],
  ["post", "/v1/projects/{projectId}/experiments/{experimentKey}/stop", { projectId: "shop", experimentKey: "checkout-redesign" }],
  ["post", "/v1/projects/{projectId}/flags/{flagKey}/release-plans", { projectId: "shop", flagKey: "new-checkout" }],
  ["patch", "/v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}", { projectId: "shop", flagKey: "new-checkout" }],
  ["post", "/v1/projects/{projectId}/flags/{flagKey}/release-plans/{releasePlanId}/resume", { projectId: "shop", flagKey: "new-checkout" }],
  ["post", "/v1/exposures", {}],
  ["post", "/v1/track", {}],
  // A project file adds a flag, on in production (after the evaluations, whose examples show one flag).
  ["post", "/v1/projects/{projectId}/apply", { projectId: "shop" }],
  // A flagd file adds another flag (an import only creates flags), its targeting in production.
  ["post", "/v1/projects/{projectId}/import/flagd", { projectId: "shop" }],
  ["post", "/v1/projects/{projectId}/environments/{environmentKey}/copy", { projectId: "shop", environmentKey: "staging" }],
  ["post", "/v1/projects/{projectId}/keys", { projectId: "shop" }],
  // People: Edna is invited, renamed, made an admin of the shop (by Ada, a global administrator: no key
  // changes members), sets her password and signs in.
  ["post", "/v1/users", {}],
  ["patch", "/v1/users/{id}", {}],
  ["put", "/v1/projects/{projectId}/members/{userId}", { projectId: "shop" }],
  ["post", "/v1/auth/setup", {}],
  ["post", "/v1/auth/login", {}],
  // Change requests: Edna proposes and updates, Ada (another person: no key approves) approves, then rejects.
  ["post", "/v1/projects/{projectId}/change-requests", { projectId: "shop" }],
  ["put", "/v1/projects/{projectId}/change-requests/{changeRequestId}", { projectId: "shop" }],
  ["post", "/v1/projects/{projectId}/change-requests/{changeRequestId}/approve", { projectId: "shop" }],
  ["post", "/v1/projects/{projectId}/change-requests/{changeRequestId}/reject", { projectId: "shop" }],
  // Last: its example withholds production's configuration from client keys.
  ["patch", "/v1/projects/{projectId}/environments/{environmentKey}", { projectId: "shop", environmentKey: "production" }]
]

/** A client key of the story's project, for the OFREP routes (made once, through the key API). */
let shopKey: string | undefined
const shopClientKey = async (): Promise<string> => {
  if (shopKey !== undefined) return shopKey
  const made = await request(t.url, "POST", "/v1/projects/shop/keys", { key: t.keys.global, body: { type: "client", name: "ofrep" } })
  expect(made.status, made.text).toBe(201)
  shopKey = (made.body as { key: string }).key
  return shopKey
}

/** The copy needs a second environment, which no example creates (the environment example is `production`). */
const STAGING = { key: "staging", name: "Staging" }

const exampleOf = (operation: Record<string, any>): unknown => {
  // A key list upload is text, its example inline.
  if (operation.requestBody.content["text/plain"] !== undefined) return operation.requestBody.content["text/plain"].example
  const schema = operation.requestBody.content["application/json"].schema
  // A named schema holds its examples in components; an inline one (the flagd file) holds them itself.
  const ref: string | undefined = schema.$ref
  const examples = (ref === undefined ? schema.examples : spec.components.schemas[ref.replace("#/components/schemas/", "")].examples) as Array<unknown>
  expect(examples.length, ref ?? "inline schema").toBeGreaterThan(0)
  return examples[0]
}

/**
 * The insights report example names a fixed hour, and reports about hours older than 48 h are
 * refused: the same report, moved to the last minute (its window length, and so what it may claim, kept).
 */
const recent = (template: string, body: unknown): unknown => {
  if (template === "/v1/exposures") {
    // Exposures older than 24 hours are refused too: the example's, sent now.
    const batch = body as { exposures: ReadonlyArray<object> }
    return { ...batch, exposures: batch.exposures.map((exposure) => ({ ...exposure, timestamp: new Date().toISOString() })) }
  }
  if (template === "/v1/track") {
    // So are metric events: the example's timestamps, moved to now.
    const batch = body as { events: ReadonlyArray<{ timestamp?: string }> }
    return { ...batch, events: batch.events.map((event) => (event.timestamp === undefined ? event : { ...event, timestamp: new Date().toISOString() })) }
  }
  if (template !== "/v1/insights") return body
  const report = body as { from: string; to: string }
  const length = Date.parse(report.to) - Date.parse(report.from)
  return { ...report, from: new Date(Date.now() - length).toISOString(), to: new Date().toISOString() }
}

const responseExampleOf = (operation: Record<string, any>, status: string): unknown => {
  const ref: string = operation.responses[status].content["application/json"].schema.$ref
  return (spec.components.schemas[ref.replace("#/components/schemas/", "")].examples as Array<unknown>)[0]
}

/**
 * Where `actual` differs in shape from `example`: object fields (recursively) and primitive types,
 * not values; arrays compare their first elements (an empty array fits any).
 */
const shapeDifferences = (actual: unknown, example: unknown, at = "$"): Array<string> => {
  const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)
  if (kind(actual) !== kind(example)) return [`${at}: ${kind(actual)} where the example has ${kind(example)}`]
  if (Array.isArray(actual) && Array.isArray(example)) {
    return actual.length === 0 || example.length === 0 ? [] : shapeDifferences(actual[0], example[0], `${at}[0]`)
  }
  if (typeof actual !== "object" || actual === null) return []
  const a = actual as Record<string, unknown>
  const e = example as Record<string, unknown>
  const keys = [...new Set([...Object.keys(a), ...Object.keys(e)])].sort()
  return keys.flatMap((key) =>
    !(key in a) ? [`${at}.${key}: missing`] : !(key in e) ? [`${at}.${key}: not in the example`] : shapeDifferences(a[key], e[key], `${at}.${key}`)
  )
}

/**
 * The release plan example is a running one at its first step: a draft's (or a paused one's)
 * step, schedule, starter and baseline are null or set as its status says.
 */
const asReleasePlanIs = (example: unknown, answer: unknown): unknown => {
  const a = answer as Record<string, unknown>
  const statusFields = ["currentStep", "nextStepAt", "pausedBy", "failure", "harm", "baseline", "startedBy", "startedAt", "completedAt"]
  return { ...(example as object), ...Object.fromEntries(statusFields.map((field) => [field, a[field]])) }
}

/**
 * The experiment example is a running one: an answer's `startedAt` and `stoppedAt` are null until
 * it starts and stops, and its `decision` comes with the stop.
 */
const asExperimentIs = (example: unknown, answer: unknown): unknown => {
  const { decision, startedAt, stoppedAt } = answer as Record<string, unknown>
  const { decision: _decision, ...rest } = example as Record<string, unknown>
  return { ...rest, startedAt, stoppedAt, ...(decision === undefined ? {} : { decision }) }
}

describe("the request examples of the document", () => {
  it("cover every operation with a request body", () => {
    const withBody = Object.entries(spec.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.entries(item).filter(([, op]) => op.requestBody !== undefined).map(([method]) => `${method} ${path}`)
    )
    expect(withBody.sort()).toEqual(STORY.map(([method, path]) => `${method} ${path}`).sort())
  })
  it("are accepted by a real server, in the order of their story", async () => {
    let webhookId = ""
    // The invited person's id and one-time token, known once the invitation is answered.
    let userId = ""
    let token = ""
    // Edna's session once she signed in, and the change request she opens.
    let cookie = ""
    let changeRequestId = ""
    // The id the server gave the targeting example's rollout rule, which the experiment measures.
    let rolloutRuleId = ""
    // The release plan the create example makes (on the same rule), which the next examples change.
    let releasePlanId = ""
    for (const [method, template, params] of STORY) {
      const operation = spec.paths[template][method]
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => (name === "webhookId" ? webhookId : name === "releasePlanId" ? releasePlanId : name === "changeRequestId" ? changeRequestId : name === "id" || name === "userId" ? userId : params[name]))
        // The flagd import names the environment its rules go to in the query (required).
        + (template.endsWith("/import/flagd") ? "?environment=production" : "")
      const success = Object.keys(operation.responses).find((status) => status.startsWith("2"))
      if (template.endsWith("/copy")) {
        const staging = await request(t.url, "POST", `/v1/projects/${params.projectId}/environments`, { key: t.keys.global, body: STAGING })
        expect(staging.status, staging.text).toBe(201)
      }
      if (template.endsWith("/resume")) {
        // Only a paused plan resumes: started and paused first.
        for (const step of ["start", "pause"]) {
          const done = await request(t.url, "POST", path.replace(/\/resume$/, `/${step}`), { key: t.keys.global })
          expect(done.status, done.text).toBe(200)
        }
      }
      if (template.endsWith("/stop")) {
        const started = await request(t.url, "POST", path.replace(/\/stop$/, "/start"), { key: t.keys.global })
        expect(started.status, started.text).toBe(200)
      }
      // OFREP takes the project from the key (a global key names none) and the environment from a header.
      const ofrep = template.startsWith("/ofrep/")
      const key = ofrep || template === "/v1/exposures" || template === "/v1/track" ? await shopClientKey() : t.keys.global
      const headers: Record<string, string> = ofrep ? { "flagport-environment": "production" } : typeof operation.requestBody.content["text/plain"] === "object" ? { "content-type": "text/plain" } : {}
      const example = recent(template, exampleOf(operation))
      // The setup example's token stands for the one the invitation handed out.
      // The experiment example's rule stands for the rollout rule of the targeting example.
      const body = template === "/v1/auth/setup"
        ? { ...(example as object), token }
        : template === "/v1/projects/{projectId}/experiments" || template.endsWith("/release-plans")
        ? { ...(example as object), ruleId: rolloutRuleId }
        : example
      // A change request is opened and updated by a person (its author), as the example shows.
      const byEdna = template === "/v1/projects/{projectId}/change-requests" || (template.endsWith("{changeRequestId}") && method === "put")
      // What only people may do (a member's role, an approval, a rejection) is done by Ada.
      const byAda = template.includes("/members/") || template.endsWith("/approve") || template.endsWith("/reject")
      const reply = byEdna || byAda
        ? await request(t.url, method.toUpperCase(), path, { headers: { cookie: byEdna ? cookie : ada.cookie, origin: t.url }, body })
        : await request(t.url, method.toUpperCase(), path, { key, headers, body })
      expect(String(reply.status), `${method} ${path}: ${reply.text}`).toBe(success)
      const shown = responseExampleOf(operation, success!)
      // A rejected request also says who rejected it and why (the example is an open one).
      const expected = template.endsWith("/reject")
        ? { ...(shown as object), rejection: { by: (reply.body as { rejection: { by: unknown } }).rejection.by, at: "", comment: "" } }
        : template.includes("/experiments")
        ? asExperimentIs(shown, reply.body)
        : template.includes("/release-plans")
        ? asReleasePlanIs(shown, reply.body)
        : shown
      expect(shapeDifferences(reply.body, expected), `${method} ${path}`).toEqual([])
      if (template === "/v1/auth/login") cookie = sessionCookieOf(reply)
      if (template === "/v1/projects/{projectId}/change-requests") changeRequestId = (reply.body as { id: string }).id
      if (template.endsWith("/targeting")) {
        const rules = (reply.body as { configs: Array<{ environmentKey: string; rules: Array<{ id: string; rollout?: unknown }> }> }).configs
          .find((config) => config.environmentKey === "production")!.rules
        rolloutRuleId = rules.find((rule) => rule.rollout !== undefined)!.id
      }
      if (template === "/v1/projects/{projectId}/webhooks") webhookId = (reply.body as { id: string }).id
      if (template.endsWith("/release-plans")) releasePlanId = (reply.body as { id: string }).id
      if (template === "/v1/users") {
        const invited = reply.body as { user: { id: string }; setupUrl: string }
        userId = invited.user.id
        token = decodeURIComponent(invited.setupUrl.split("#token=")[1]!)
      }
      if (template === "/v1/evaluate" || template === "/ofrep/v1/evaluate/flags/{key}") {
        expect(reply.body).toMatchObject(ofrep ? { value: true, variant: "on" } : { flags: { "new-checkout": { value: true, variationKey: "on" } } })
      }
    }
  })
})
