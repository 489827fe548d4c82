/**
 * The authorization matrix, shared by the memory/SQLite and PostgreSQL runs: every endpoint x
 * (no key, malformed header, unknown key, client key, scoped key of the project, scoped key of
 * another project, global key, bound keys) and x the people (viewer, editor and admin of the
 * project, global admin, no session, a disabled user, another project's admin, each by session
 * cookie), through a real server over HTTP. The table (the callers, the endpoints' rows, what
 * each caller gets) is authorization/Matrix.ts, which the use-case run (AuthorizationUseCases.test.ts)
 * holds the use cases to as well.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Layer } from "effect"
import { Messages } from "../../src/domain/auth/Policy.js"
import type * as StorageLayer from "../../adapters/app/Composition.js"
import { type Reply, request, startServer, type Keys, type TestServer } from "./fixtures.js"
import { type People, seedPeople } from "./people.js"
import { create, flagBody } from "./authorization/Endpoint.js"
import { type Credential, CREDENTIALS, ENDPOINTS, expectedFor, isPerson } from "./authorization/Matrix.js"

/** A cookie of the right shape that names no session. */
const NO_SESSION = `flagport_session=${"n".repeat(43)}`

const headersFor = (credential: Credential, keys: Keys, people: People, base: string): Record<string, string> => {
  // A person's browser on the dashboard: the cookie, and the server's own Origin (CSRF is tested in SignIn.test.ts).
  if (isPerson(credential)) return { cookie: credential === "noSession" ? NO_SESSION : people[credential].cookie, origin: base }
  switch (credential) {
    case "none":
      return {}
    case "malformed":
      return { authorization: `Token ${keys.global}` }
    case "unknown":
      return { authorization: "Bearer srv_this-key-does-not-exist" }
    case "client":
      return { authorization: `Bearer ${keys.client}` }
    case "scopedOwn":
      return { authorization: `Bearer ${keys.scoped}` }
    case "scopedOther":
      return { authorization: `Bearer ${keys.otherScoped}` }
    case "global":
      return { authorization: `Bearer ${keys.global}` }
    case "boundClient":
      return { authorization: `Bearer ${keys.boundClient}` }
    case "boundClientOther":
      return { authorization: `Bearer ${keys.boundClientOther}` }
    case "boundServerOther":
      return { authorization: `Bearer ${keys.boundServerOther}` }
  }
}

/**
 * `request`, except that a successful `GET /v1/stream` (or `.../events`) never ends: its status and headers are
 * enough, so the stream is dropped once they arrive (its body is never read).
 */
const requestOrStream = async (...args: Parameters<typeof request>): Promise<Reply> => {
  const [base, method, path, options = {}] = args
  if (!path.startsWith("/v1/stream") && !/^\/v1\/projects\/[^/]+\/events$/.test(path)) return request(...args)
  const headers: Record<string, string> = { ...options.headers }
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
  const controller = new AbortController()
  const response = await fetch(`${base}${path}`, { method, headers, signal: controller.signal })
  if (response.status === 200) {
    controller.abort()
    return { status: 200, headers: response.headers, text: "", body: undefined }
  }
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) as unknown }
}

export const authorizationMatrix = (label: string, storage: () => Layer.Layer<StorageLayer.Storage, unknown>) =>
  describe(`authorization matrix (${label})`, () => {
    let t: TestServer
    let people: People
    beforeAll(async () => {
      // The matrix makes a webhook of p1 per case, more than the 20 a project may have by default.
      process.env.FLAGPORT_WEBHOOKS_PER_PROJECT = "1000"
      t = await startServer(storage()).finally(() => delete process.env.FLAGPORT_WEBHOOKS_PER_PROJECT)
      await create(t, "/v1/projects/p1/flags", flagBody("matrix-flag"))
      people = await t.run(seedPeople)
    })
    afterAll(async () => {
      await t?.close()
    })

    let counter = 0
    const rows = ENDPOINTS.flatMap((endpoint) => CREDENTIALS.map((credential) => [endpoint.name, credential, endpoint] as const))
    it.each(rows)("%s with %s", async (_name, credential, endpoint) => {
      const { body, headers, method, path } = await endpoint.prepare(t, ++counter)
      const reply = await requestOrStream(t.url, method, path, { headers: { ...headersFor(credential, t.keys, people, t.url), ...headers }, body })
      const expected = expectedFor(endpoint, credential)
      if (typeof expected === "number") {
        expect(reply.status, reply.text).toBe(expected)
      } else {
        expect({ status: reply.status, body: reply.body }).toEqual({
          status: expected.status,
          body: { error: { code: expected.code, message: expected.message } }
        })
      }
    })

    it("covers every operation of the API (OFREP below; sign-in, sign-out and setup in SignIn.test.ts)", async () => {
      const spec = (await request(t.url, "GET", "/openapi.json")).body as { paths: Record<string, Record<string, unknown>> }
      const shape = (route: string) => route.replace(/\{[^}]+\}/g, "{}")
      const declared = Object.entries(spec.paths).flatMap(([path, item]) => Object.keys(item).map((method) => shape(`${method.toUpperCase()} ${path}`)))
      const elsewhere = ["POST /ofrep/v1/evaluate/flags/{}", "POST /ofrep/v1/evaluate/flags", "POST /v1/auth/login", "POST /v1/auth/logout", "POST /v1/auth/setup"]
      const covered = new Set([...ENDPOINTS.map((e) => shape(e.name)), ...elsewhere])
      expect(declared.filter((route) => !covered.has(route))).toEqual([])
    })

    it("a member listing projects sees only theirs; a global admin sees every one", async () => {
      const listed = async (cookie: string) =>
        ((await request(t.url, "GET", "/v1/projects", { headers: { cookie } })).body as { data: Array<{ id: string }> }).data.map((p) => p.id)
      expect(await listed(people.viewer.cookie)).toEqual(["p1"])
      expect(await listed(people.otherAdmin.cookie)).toEqual(["p2"])
      expect(await listed(people.globalAdmin.cookie)).toEqual(expect.arrayContaining(["p1", "p2"]))
    })

    it("another project's admin gets for p1 exactly what a project that does not exist gets", async () => {
      const p1 = await request(t.url, "GET", "/v1/projects/p1/flags", { headers: { cookie: people.otherAdmin.cookie } })
      const none = await request(t.url, "GET", "/v1/projects/no-such-project/flags", { headers: { cookie: people.otherAdmin.cookie } })
      expect({ status: p1.status, body: p1.body }).toEqual({ status: none.status, body: { error: { code: "not_found", message: "Project 'p1' not found" } } })
      expect(none.body).toEqual({ error: { code: "not_found", message: "Project 'no-such-project' not found" } })
    })

    it("a scoped key listing projects sees only its own", async () => {
      const reply = await request(t.url, "GET", "/v1/projects", { key: t.keys.otherScoped })
      expect((reply.body as { data: Array<{ id: string }> }).data.map((p) => p.id)).toEqual(["p2"])
    })

    it("a revoked key is an unknown key", async () => {
      const reply = await request(t.url, "GET", "/v1/projects", { key: t.keys.revoked })
      expect(reply.body).toEqual({ error: { code: "unauthorized", message: Messages.invalidKey } })
    })

    it("a client key without a project is refused on evaluation and management", async () => {
      const evaluation = await request(t.url, "GET", "/v1/config?environment=development", { key: t.keys.unscopedClient })
      expect({ status: evaluation.status, body: evaluation.body }).toEqual({
        status: 403,
        body: { error: { code: "forbidden", message: Messages.clientKeyUnscoped } }
      })
      const management = await request(t.url, "GET", "/v1/projects/p1/flags", { key: t.keys.unscopedClient })
      expect(management.body).toEqual({ error: { code: "forbidden", message: Messages.serverKeyRequired } })
    })

    it("client and scoped keys evaluate their own project without projectId; a global key must name it", async () => {
      for (const key of [t.keys.client, t.keys.scoped]) {
        const reply = await request(t.url, "GET", "/v1/flags/matrix-flag/eval?environment=development&key=u", { key })
        expect(reply.status).toBe(200)
      }
      const missing = await request(t.url, "POST", "/v1/evaluate", {
        key: t.keys.global,
        body: { environment: "development", context: { key: "u" } }
      })
      expect(missing.status).toBe(400)
      expect((missing.body as { error: { code: string } }).error.code).toBe("invalid_request")
      const otherClient = await request(t.url, "GET", "/v1/config?environment=development&projectId=p1", { key: t.keys.otherClient })
      expect(otherClient.body).toEqual({ error: { code: "forbidden", message: Messages.projectMismatch } })
    })

    /** Each evaluation endpoint without naming an environment, as [name, method, path, body]. */
    const withoutEnvironment: ReadonlyArray<readonly [string, string, string, unknown]> = [
      ["POST /v1/evaluate", "POST", "/v1/evaluate", { context: { key: "u" } }],
      ["GET /v1/flags/{f}/eval", "GET", "/v1/flags/matrix-flag/eval?key=u", undefined],
      ["GET /v1/config", "GET", "/v1/config", undefined],
      ["GET /v1/stream", "GET", "/v1/stream", undefined],
      ["POST /v1/explain", "POST", "/v1/explain", { context: { key: "u" }, flagKey: "matrix-flag" }]
    ]

    it.each(withoutEnvironment)("%s: a bound key that names no environment is answered for its own", async (name, method, path, body) => {
      const reply = await requestOrStream(t.url, method, path, { key: t.keys.boundClientOther, body })
      expect(reply.status, reply.text).toBe(200)
      const production = await request(t.url, "GET", "/v1/config?environment=production", { key: t.keys.client })
      if (name === "GET /v1/config") expect(reply.headers.get("etag")).toBe(production.headers.get("etag"))
      if (name === "POST /v1/evaluate") expect((reply.body as { environment: string }).environment).toBe("production")
    })

    it.each(withoutEnvironment)("%s: an unbound key that names no environment gets the missing field's 400", async (_name, method, path, body) => {
      const reply = await requestOrStream(t.url, method, path, { key: t.keys.client, body })
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 400,
        body: { error: { code: "invalid_request", message: Messages.requestInvalid, details: [{ path: "environment", message: "is required (or use an API key bound to an environment)" }] } }
      })
    })

    it.each(withoutEnvironment)("%s: a key bound to an environment the project lacks gets 404", async (_name, method, path, body) => {
      const reply = await requestOrStream(t.url, method, path, { key: t.keys.boundToUnknown, body })
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 404,
        body: { error: { code: "not_found", message: "Environment 'staging' not found in project 'p1'" } }
      })
    })

    // OFREP: the same keys and policy, answered in OFREP's bodies. The project comes from the key
    // (a key of p2 sees only p2's flags), the environment from the Flagport-Environment header.
    const ofrepRoutes = [
      ["POST /ofrep/v1/evaluate/flags/{key}", "/ofrep/v1/evaluate/flags/matrix-flag", "matrix-flag"],
      ["POST /ofrep/v1/evaluate/flags", "/ofrep/v1/evaluate/flags", undefined]
    ] as const
    const ofrepExpected = (credential: Credential, flagKey: string | undefined): { status: number; errorCode?: string; errorDetails?: string } => {
      switch (credential) {
        case "none":
        case "malformed":
          return { status: 401, errorCode: "GENERAL", errorDetails: Messages.malformedHeader }
        case "unknown":
          return { status: 401, errorCode: "GENERAL", errorDetails: Messages.invalidKey }
        case "client":
        case "scopedOwn":
        case "boundClient":
          return { status: 200 }
        case "scopedOther":
          // p2 has no such flag: the key never reaches p1's.
          return flagKey === undefined ? { status: 200 } : { status: 404, errorCode: "FLAG_NOT_FOUND", errorDetails: "No flag 'matrix-flag' in environment 'development'" }
        case "global":
          return { status: 400, errorCode: "INVALID_CONTEXT", errorDetails: "A global server key names no project on OFREP routes: use a key scoped to the project" }
        case "boundClientOther":
        case "boundServerOther":
          return { status: 403, errorCode: "GENERAL", errorDetails: Messages.environmentMismatch }
        default:
          // A person's cookie is no credential for evaluation: OFREP is key-only.
          return { status: 401, errorCode: "GENERAL", errorDetails: Messages.malformedHeader }
      }
    }
    const ofrepRows = ofrepRoutes.flatMap(([name, path, flagKey]) => CREDENTIALS.map((credential) => [name, credential, path, flagKey] as const))
    it.each(ofrepRows)("%s with %s", async (_name, credential, path, flagKey) => {
      const reply = await request(t.url, "POST", path, {
        headers: { ...headersFor(credential, t.keys, people, t.url), "flagport-environment": "development" },
        body: { context: { targetingKey: "u" } }
      })
      const expected = ofrepExpected(credential, flagKey)
      expect(reply.status, reply.text).toBe(expected.status)
      if (expected.errorCode !== undefined) {
        expect(reply.body).toEqual({ ...(flagKey === undefined ? {} : { key: flagKey }), errorCode: expected.errorCode, errorDetails: expected.errorDetails })
      } else if (flagKey === undefined) {
        const keys = (reply.body as { flags: Array<{ key: string }> }).flags.map((f) => f.key)
        expect(keys.includes("matrix-flag")).toBe(credential !== "scopedOther")
      }
    })

    it("OFREP: a bound key needs no header; a client key without a project is refused; one bound to a missing environment is INVALID_CONTEXT", async () => {
      const bound = await request(t.url, "POST", "/ofrep/v1/evaluate/flags/matrix-flag", { key: t.keys.boundClientOther, body: {} })
      expect(bound.status, bound.text).toBe(200)
      const unscoped = await request(t.url, "POST", "/ofrep/v1/evaluate/flags", { key: t.keys.unscopedClient, body: {}, headers: { "flagport-environment": "development" } })
      expect({ status: unscoped.status, body: unscoped.body }).toEqual({ status: 403, body: { errorCode: "GENERAL", errorDetails: Messages.clientKeyUnscoped } })
      const unknown = await request(t.url, "POST", "/ofrep/v1/evaluate/flags", { key: t.keys.boundToUnknown, body: {} })
      expect({ status: unknown.status, body: unknown.body }).toEqual({
        status: 400,
        body: { errorCode: "INVALID_CONTEXT", errorDetails: "Environment 'staging' not found in project 'p1'" }
      })
      const unbound = await request(t.url, "POST", "/ofrep/v1/evaluate/flags", { key: t.keys.client, body: {} })
      expect({ status: unbound.status, body: unbound.body }).toEqual({
        status: 400,
        body: { errorCode: "INVALID_CONTEXT", errorDetails: "No environment: send the Flagport-Environment header, or use an API key bound to an environment" }
      })
    })

    it.each([
      ["lower-case scheme", (k: string) => `bearer ${k}`, 200],
      ["upper-case scheme", (k: string) => `BEARER ${k}`, 200],
      ["two spaces", (k: string) => `Bearer  ${k}`, 401],
      ["another scheme of the same length", (k: string) => `XXXXXX ${k}`, 401],
      ["only a prefix of the key", (k: string) => `Bearer ${k.slice(0, 12)}`, 401],
      ["the key and more", (k: string) => `Bearer ${k}x`, 401]
    ] as const)("Authorization header: %s", async (_name, header, status) => {
      for (const path of ["/v1/projects", "/v1/config?environment=development&projectId=p1"]) {
        const reply = await request(t.url, "GET", path, { headers: { authorization: header(t.keys.global) } })
        expect(reply.status, `${path}: ${reply.text}`).toBe(status)
      }
    })
  })
