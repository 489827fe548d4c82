/**
 * `GET /v1/stream` under an environment whose `clientConfig` is `evaluated` (client keys get
 * evaluated answers only, never the configuration): the stream still serves client keys, and what
 * arrives is the OFREP notification alone (the configuration's ETag, the same a server key's
 * `GET /v1/config` answers, and when it was seen), never a flag, a rule or a value. Then the SDK in
 * streaming mode there: with a client key it cannot evaluate in process, so `createClient` rejects
 * at once with the server's 403; with a bootstrap it serves that, its stream open, and each
 * announced change meets the same refusal (told once); a server key follows every change through
 * the stream alone.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import { type ConfigSnapshot, createClient, type FlagportServerError } from "../../adapters/client/index.js"
import { request } from "../http/fixtures.js"
import { etagOf, openStream, type OpenStream } from "../http/sse.js"
import { type Flagport, startFlagport } from "./RealServer.js"
import { onOff, track } from "./Tracked.js"

const EVALUATED_ONLY = "This environment serves client keys evaluated answers only"

let server: Flagport
const streams: Array<OpenStream> = []

beforeAll(async () => {
  server = await startFlagport()
  await server.createFlag("secret-rule", "boolean", onOff)
  await server.target("secret-rule", targeting("off"))
  await server.setClientConfig("production", "evaluated")
}, 60_000)

afterAll(async () => {
  for (const stream of streams) stream.close()
  await server.close()
})

function targeting(serve: "on" | "off") {
  return {
    enabled: true,
    defaultVariationKey: serve,
    offVariationKey: "off",
    rules: [{ id: "vip-only", conditions: [{ attribute: "email", operator: "endsWith", values: ["@vip.example"] }], variationKey: "on" }]
  }
}

/** The configuration's ETag as a server key reads it. */
const configEtag = async (): Promise<string | null> =>
  (await request(server.url, "GET", "/v1/config?environment=production", { key: server.serverKey })).headers.get("etag")

/** The real `fetch`, recording each answer's path and status. */
const recording = () => {
  const answers: Array<{ readonly path: string; readonly status: number }> = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init)
    answers.push({ path: new URL(input instanceof Request ? input.url : String(input)).pathname, status: response.status })
    return response
  }
  return { answers, fetch }
}

describe("GET /v1/stream under clientConfig: evaluated", () => {
  it("serves a client key notifications only: the configuration's ETag on connect and on each change, nothing of the configuration", async () => {
    const refused = await request(server.url, "GET", "/v1/config?environment=production", { key: server.clientKey })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ error: { code: "forbidden", message: expect.stringContaining(EVALUATED_ONLY) } })

    const stream = await openStream(server.url, "/v1/stream?environment=production", { authorization: `Bearer ${server.clientKey}` })
    streams.push(stream)
    expect(stream.status).toBe(200)
    expect(stream.headers["content-type"]).toMatch(/^text\/event-stream/)
    const first = await stream.event(0)
    expect(etagOf(first)).toBe(await configEtag())
    expect(Object.keys(JSON.parse(first.data) as object).sort()).toEqual(["etag", "lastModified", "type"])

    await server.target("secret-rule", targeting("on"))
    const second = await stream.event(1)
    expect(etagOf(second)).toBe(await configEtag())
    expect(etagOf(second)).not.toBe(etagOf(first))
    for (const event of [first, second]) {
      expect(event.data).not.toMatch(/secret-rule|vip|endsWith|variation/)
      expect(Object.keys(JSON.parse(event.data) as object).sort()).toEqual(["etag", "lastModified", "type"])
    }
  })
})

describe("the SDK's streaming mode under clientConfig: evaluated", () => {
  it("a client key: createClient rejects at once with the server's 403 forbidden (in-process evaluation needs the configuration)", async () => {
    const started = Date.now()
    const error = await createClient({ url: server.url, key: server.clientKey, environment: "production", startTimeoutMs: 30_000 }).then(
      (flags) => (track(flags), undefined),
      (error: unknown) => error
    )
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(error).toMatchObject({ status: 403, code: "forbidden", serverMessage: expect.stringContaining(EVALUATED_ONLY) })
  })

  it("a client key with a bootstrap: serves it, its stream open; each announced change is refetched, refused, and told once", async () => {
    const { answers, fetch } = recording()
    const bootstrap = {
      environment: "production",
      flags: [{ key: "boot", type: "boolean", enabled: true, variations: onOff, defaultVariationKey: "on", offVariationKey: "off", rules: [] }],
      segments: []
    } as unknown as ConfigSnapshot
    const flags = track(await createClient({ url: server.url, key: server.clientKey, environment: "production", bootstrap, pollIntervalMs: 60_000, fetch }))
    const heard: Array<FlagportServerError | undefined> = []
    flags.on("error", (_message, refusal) => heard.push(refusal))
    await vi.waitFor(() => expect(answers).toContainEqual({ path: "/v1/stream", status: 200 }))
    await vi.waitFor(() => expect(heard).toHaveLength(1))
    expect(heard[0]).toMatchObject({ status: 403, code: "forbidden" })

    const refetches = () => answers.filter((answer) => answer.path === "/v1/config").length
    const before = refetches()
    await server.target("secret-rule", targeting("off"))
    await vi.waitFor(() => expect(refetches()).toBe(before + 1))
    expect(answers.filter((answer) => answer.path === "/v1/config").every((answer) => answer.status === 403)).toBe(true)
    expect(heard).toHaveLength(1)
    expect(flags.boolean("boot", { key: "u" }, false)).toBe(true)
    expect(flags.boolean("secret-rule", { key: "u" }, true)).toBe(true) // not in the bootstrap: the fallback
  })

  it("a server key follows the environment's changes through the stream (polling a minute away)", async () => {
    const { answers, fetch } = recording()
    await server.target("secret-rule", targeting("off"))
    const flags = track(await createClient({ url: server.url, key: server.serverKey, environment: "production", pollIntervalMs: 60_000, fetch }))
    const context = { key: "u", attributes: { email: "a@example.com" } }
    expect(flags.boolean("secret-rule", context, true)).toBe(false)
    await vi.waitFor(() => expect(answers).toContainEqual({ path: "/v1/stream", status: 200 }))
    await server.target("secret-rule", { ...targeting("on"), rules: [] })
    await vi.waitFor(() => expect(flags.boolean("secret-rule", context, false)).toBe(true), { timeout: 5_000 })
    expect(flags.etag).toBe(await configEtag())
  })
})
