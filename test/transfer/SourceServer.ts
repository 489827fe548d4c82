/**
 * A SQLite database holding every kind of record a server keeps, made the way a server's users
 * make them (HTTP requests to a real server with its webhook dispatcher and scheduler running,
 * and the people's use cases), for the transfer tests. What each target must then show the same
 * is recorded here from the source: evaluations, the audit log, a stream token, the keys.
 */
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { SsoIdentityRepository } from "../../src/ports/SsoIdentityRepository.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { principalOf } from "../../src/domain/auth/Policy.js"
import { StreamTokens } from "../../src/services/auth/StreamTokens.js"
import { Users } from "../../src/services/people/Users.js"
import { type Keys, request, startServer, type TestServer } from "../http/fixtures.js"
import { makePerson, PASSWORD } from "../http/people.js"

/** The webhook's Standard Webhooks secret (32 bytes, base64). */
export const WEBHOOK_SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`

export interface Delivery {
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

/** A receiver of webhook deliveries that records them; `fail` makes it answer 500. */
export const receiver = async (fail = false) => {
  const deliveries: Array<Delivery> = []
  const server = Http.createServer((req, res) => {
    let body = ""
    req.on("data", (chunk: Buffer) => (body += chunk.toString()))
    req.on("end", () => {
      deliveries.push({ headers: req.headers, body })
      res.writeHead(fail ? 500 : 204)
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export type Receiver = Awaited<ReturnType<typeof receiver>>

export const waitFor = async <A>(what: string, probe: () => Promise<A | undefined> | A | undefined, timeoutMs = 15_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await probe()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const boolFlag = (key: string) => ({ key, name: key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
const stringFlag = (key: string) => ({
  key,
  name: `The ${key} flag`,
  description: "Colours, with \"quotes\" and ünïcode",
  type: "string",
  variations: [{ key: "red", value: "Red" }, { key: "green", value: "Green" }, { key: "blue", value: "Blue" }]
})

/** Targeting with a segment, several operators, a percentage rollout and a prerequisite. */
const richTargeting = (environment: string) => ({
  environment,
  enabled: true,
  defaultVariationKey: "red",
  offVariationKey: "blue",
  prerequisites: [{ flagKey: "payments-live", variationKey: "on" }],
  rules: [
    { id: "staff", conditions: [{ operator: "inSegment", values: ["staff"] }], variationKey: "green" },
    { id: "old-app", conditions: [{ attribute: "version", operator: "semverLt", values: ["2.0.0"] }], variationKey: "blue" },
    { id: "big", conditions: [{ attribute: "seats", operator: "gte", values: [50] }, { attribute: "country", operator: "in", values: ["fr", "de"], negate: true }], variationKey: "green" },
    { id: "half", conditions: [], rollout: { variations: [{ variationKey: "red", weight: 50_000 }, { variationKey: "green", weight: 50_000 }] } }
  ]
})

/** Contexts to evaluate on every side: enough kinds that each rule above is taken by some. */
export const contexts = Array.from({ length: 200 }, (_, i) => ({
  key: `user-${i}`,
  attributes: {
    email: i % 7 === 0 ? `person${i}@staff.example` : `person${i}@example.com`,
    version: `${1 + (i % 3)}.${i % 5}.0`,
    seats: (i * 13) % 100,
    country: ["fr", "de", "us", "jp"][i % 4]!
  }
}))

/** What every target must answer as the source did. */
export interface SourceFacts {
  readonly keys: Keys
  /** `POST /v1/evaluate` answers per environment, for `contexts`, with the p1 server key. */
  readonly evaluations: Record<string, ReadonlyArray<unknown>>
  /** The whole audit log of p1 and p2, newest first. */
  readonly audit: Record<string, unknown>
  readonly streamToken: string
  /** The admin's password and a session cookie of theirs; an invited person's one-time setup token. */
  readonly people: { readonly email: string; readonly password: string; readonly cookie: string; readonly setupToken: string }
  readonly webhookId: string
}

export const evaluateAll = async (url: string, key: string) => {
  const answers: Record<string, Array<unknown>> = {}
  for (const environment of ["development", "production"]) {
    answers[environment] = []
    for (const context of contexts) {
      const reply = await request(url, "POST", "/v1/evaluate", { key, body: { environment, context } })
      expect(reply.status, reply.text).toBe(200)
      answers[environment].push(reply.body)
    }
  }
  return answers
}

/** Every entry of a project's audit log, page after page. */
export const auditOf = async (url: string, key: string, projectId: string) => {
  const entries: Array<unknown> = []
  let cursor: string | null = null
  do {
    const reply = await request(url, "GET", `/v1/projects/${projectId}/audit?limit=100${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`, { key })
    expect(reply.status, reply.text).toBe(200)
    const page = reply.body as { data: Array<unknown>; nextCursor: string | null }
    entries.push(...page.data)
    cursor = page.nextCursor
  } while (cursor !== null)
  return entries
}

/** Fills the SQLite file `filename` with every kind of record, then stops its server. */
export const fillSource = async (filename: string, hooks: { readonly ok: Receiver; readonly failing: Receiver }): Promise<SourceFacts> => {
  const t: TestServer = await startServer(StorageLayer.sqliteStorage(filename), { webhooks: true, schedules: true })
  try {
    const key = t.keys.global
    const call = async (method: string, path: string, body?: unknown, status = method === "POST" ? 201 : 200) => {
      const reply = await request(t.url, method, path, { key, ...(body === undefined ? {} : { body }) })
      expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(status)
      return reply.body as Record<string, any>
    }
    const hook = await call("POST", "/v1/projects/p1/webhooks", { url: hooks.ok.url, events: ["flag.created", "flag.updated"], secret: WEBHOOK_SECRET })
    await call("POST", "/v1/projects/p2/webhooks", { url: hooks.failing.url, events: ["flag.created"] })
    await call("POST", "/v1/projects/p1/segments", {
      key: "staff",
      name: "Staff",
      conditions: [{ attribute: "email", operator: "endsWith", values: ["@staff.example"] }]
    })
    // A key list, so its generations and keys are copied under test.
    const keys = await request(t.url, "PUT", "/v1/projects/p1/segments/staff/keys/included", { key, body: "ada\ngrace\n", headers: { "content-type": "text/plain" } })
    expect(keys.status, keys.text).toBe(200)
    // And a change to it, so its change log (what SDKs fetch as a delta) is copied under test too.
    const change = await request(t.url, "PATCH", "/v1/projects/p1/segments/staff/keys/included", { key, body: { add: ["linus"], remove: ["grace"] } })
    expect(change.status, change.text).toBe(200)
    await call("POST", "/v1/projects/p1/flags", boolFlag("payments-live"))
    await call("POST", "/v1/projects/p1/flags", stringFlag("colour"))
    await call("POST", "/v1/projects/p2/flags", boolFlag("other"))
    for (const environment of ["development", "production"]) {
      await call("PUT", "/v1/projects/p1/flags/payments-live/targeting", { environment, enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
      await call("PUT", "/v1/projects/p1/flags/colour/targeting", richTargeting(environment))
    }
    // Flags in bulk, so tables span several batches of the copy.
    for (let i = 0; i < 30; i++) await call("POST", "/v1/projects/p1/flags", boolFlag(`bulk-${i}`))
    await call("PATCH", "/v1/projects/p1/flags/colour", { name: "Colour" })
    await call("DELETE", "/v1/projects/p1/flags/bulk-29", undefined, 204)

    // A schedule that runs and one still pending.
    const turnOn = { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
    await call("POST", "/v1/projects/p1/flags/bulk-0/schedules", { environment: "production", at: new Date(Date.now() + 300).toISOString(), targeting: turnOn })
    await call("POST", "/v1/projects/p1/flags/bulk-1/schedules", { environment: "production", at: "2099-01-01T00:00:00.000Z", targeting: turnOn })

    // People: an admin with a password and a session, an editor, an invited person, a failed sign-in.
    const admin = await t.run(makePerson("admin@example.com", { admin: true }))
    const editor = await t.run(makePerson("Editor@Example.com", { projects: [{ projectId: "p2", role: "editor" }] }))
    const invited = await t.run(Effect.flatMap(Users, (users) => users.invite({ email: "invited@example.com", admin: false, projects: [{ projectId: "p1", role: "viewer" }] })))
    expect((await request(t.url, "POST", "/v1/auth/login", { body: { email: "admin@example.com", password: "not the password" } })).status).toBe(401)

    // A change request on a protected environment: opened by the editor, approved by the admin.
    await call("PATCH", "/v1/projects/p2/environments/production", { protected: true })
    const opened = await request(t.url, "POST", "/v1/projects/p2/change-requests", {
      headers: { cookie: editor.cookie, origin: t.url },
      body: { title: "Turn other on", environment: "production", changes: [{ flagKey: "other", targeting: turnOn }] }
    })
    expect(opened.status, opened.text).toBe(201)
    const approved = await request(t.url, "POST", `/v1/projects/p2/change-requests/${(opened.body as { id: string }).id}/approve`, {
      headers: { cookie: admin.cookie, origin: t.url },
      body: { comment: "fine" }
    })
    expect(approved.status, approved.text).toBe(200)

    // An experiment on a rollout rule, started, with a client's exposures of both variations in
    // one batch (units, the variations each unit saw, the batch id) and a metric event; the admin
    // linked to single sign-on.
    await call("POST", "/v1/projects/p1/flags", boolFlag("measured"))
    const rollout = { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] }
    await call("PUT", "/v1/projects/p1/flags/measured/targeting", {
      environment: "development", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "half", conditions: [], rollout }]
    })
    await call("POST", "/v1/projects/p1/experiments", {
      key: "measured-exp", flagKey: "measured", environment: "development", ruleId: "half", controlVariationKey: "off",
      metrics: [{ key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" }]
    })
    await call("POST", "/v1/projects/p1/experiments/measured-exp/start", undefined, 200)
    const exposed = (unit: string, variationKey: string) => ({ flagKey: "measured", variationKey, ruleId: "half", unit, timestamp: new Date(Date.now() + 5).toISOString() })
    const exposures = await request(t.url, "POST", "/v1/exposures", {
      key: t.keys.client,
      body: { environment: "development", batchId: "transfer-batch", exposures: [exposed("u1", "on"), exposed("u1", "off"), exposed("u2", "off")] }
    })
    expect(exposures.status, exposures.text).toBe(202)
    // Metric events of an exposed unit (its metric row, with a fractional sum) and raw events kept
    // while a late exposure could still move its first exposure.
    const tracked = await request(t.url, "POST", "/v1/track", {
      key: t.keys.client,
      body: { environment: "development", batchId: "transfer-events", events: [{ event: "purchase", unit: "u2", value: 12.75, timestamp: new Date(Date.now() + 10).toISOString() }] }
    })
    expect(tracked.status, tracked.text).toBe(202)
    await t.run(Effect.flatMap(SsoIdentityRepository, (identities) => identities.link("https://idp.example.com", "admin-subject", admin.id, new Date().toISOString())))
    // A release plan on the rollout rule (a draft: nothing steps while the copy runs), and an
    // admin's allowance for the editor's next single sign-on link.
    await call("POST", "/v1/projects/p1/flags/colour/release-plans", {
      environment: "development", ruleId: "half", variationKey: "green", steps: [{ weight: 60_000, holdMinutes: 60 }, { weight: 100_000, holdMinutes: 60 }], onHarm: "rollback"
    }, 201)
    const allowed = await request(t.url, "POST", `/v1/users/${editor.id}/allow-sso-link`, { headers: { cookie: admin.cookie, origin: t.url } })
    expect(allowed.status, allowed.text).toBe(200)

    // Deliveries settled: every one to the answering receiver (so none is held by this server's
    // lease when it stops), and a failing one waiting for its retry; the schedule run.
    await waitFor("every delivery to the receiver", async () => {
      const log = await call("GET", `/v1/projects/p1/webhooks/${hook.id}/deliveries`)
      return log.data.length > 0 && log.data.every((d: { status: string }) => d.status === "succeeded") ? true : undefined
    }, 60_000)
    await waitFor("a failed attempt", () => (hooks.failing.deliveries.length > 0 ? true : undefined))
    await waitFor("the schedule", async () => {
      const listed = await call("GET", "/v1/projects/p1/flags/bulk-0/schedules")
      return listed.data.some((s: { status: string }) => s.status !== "pending") ? true : undefined
    })

    const streamToken = await t.run(
      Effect.gen(function* () {
        const found = yield* (yield* ApiKeys).authenticate(t.keys.client)
        if (found._tag === "None") return yield* Effect.die("no client key")
        return (yield* (yield* StreamTokens).issue(principalOf(found.value), { environment: "production" })).token
      })
    )
    const evaluations = await evaluateAll(t.url, t.keys.scoped)
    const audit = { p1: await auditOf(t.url, key, "p1"), p2: await auditOf(t.url, key, "p2") }
    return {
      keys: t.keys,
      evaluations,
      audit,
      streamToken,
      people: { email: "admin@example.com", password: PASSWORD, cookie: admin.cookie, setupToken: invited.setupToken },
      webhookId: hook.id as string
    }
  } finally {
    // Closing flushes the evaluation counts (insights) to the database.
    await t.close()
  }
}
