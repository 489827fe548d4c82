/**
 * Flagport mounted in a real Express app behind each of Express's body parsers: the parser has
 * consumed the request stream, so the mount takes the body from `req.body` (a parsed value, a
 * string or a Buffer). Every POST answers (HttpApi routes and the evaluation lane alike), with the
 * same validation as unparsed; a host that consumed the body and left nothing usable gets an
 * immediate error, never a hang.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import express from "express"
import { request, type Keys } from "./fixtures.js"
import { type Host, startHost } from "./host.js"

let host: Host
let base: string
let keys: Keys

/** Each mount sits behind a different parser, all told to take the JSON bodies Flagport expects. */
const MOUNTS = {
  json: express.json(),
  text: express.text({ type: "application/json" }),
  raw: express.raw({ type: "application/json" })
} as const

beforeAll(async () => {
  host = await startHost()
  keys = host.keys
  const flagport = await host.mount({ prefix: "/" })
  const app = express()
  for (const [name, parser] of Object.entries(MOUNTS)) {
    app.use(`/${name}`, parser, flagport.node)
  }
  // A host that drains the body itself and keeps nothing of it.
  app.use("/drained", (req, _res, next) => {
    req.on("end", () => next())
    req.resume()
  }, flagport.node)
  base = await host.listen(app)
})
afterAll(async () => {
  await host?.close()
})

const flagBody = (key: string) => ({
  key,
  type: "boolean",
  variations: [{ key: "on", value: true }, { key: "off", value: false }]
})

describe.each(Object.keys(MOUNTS))("behind express.%s()", (parser) => {
  it("creates a flag, replaces its targeting and evaluates it", async () => {
    const key = `behind-${parser}`
    const created = await request(base, "POST", `/${parser}/v1/projects/p1/flags`, { key: keys.global, body: flagBody(key) })
    expect(created.status, created.text).toBe(201)
    const targeting = await request(base, "PUT", `/${parser}/v1/projects/p1/flags/${key}/targeting`, {
      key: keys.global,
      body: { environment: "development", enabled: true, rules: [], defaultVariationKey: "on", offVariationKey: "off" }
    })
    expect(targeting.status, targeting.text).toBe(200)
    const evaluated = await request(base, "POST", `/${parser}/v1/evaluate`, {
      key: keys.client,
      body: { environment: "development", context: { key: "u1" } }
    })
    expect(evaluated.status, evaluated.text).toBe(200)
    expect(evaluated.body).toMatchObject({ flags: { [key]: { value: true, variationKey: "on" } } })
  })
  it("validates the body exactly as without a parser (unknown fields are refused)", async () => {
    const refused = await request(base, "POST", `/${parser}/v1/projects/p1/flags`, {
      key: keys.global,
      body: { ...flagBody(`refused-${parser}`), colour: "blue" }
    })
    expect(refused.status).toBe(400)
    expect((refused.body as { error: { code: string } }).error.code).toBe("invalid_request")
  })
})

describe("a host that consumed the body and kept nothing", () => {
  it("gets an immediate 500 that says what to change", async () => {
    const reply = await request(base, "POST", "/drained/v1/projects/p1/flags", { key: keys.global, body: flagBody("drained") })
    expect(reply.status).toBe(500)
    expect((reply.body as { error: { message: string } }).error.message).toContain("Pass the parsed body as the handler's third argument")
    const lane = await request(base, "POST", "/drained/v1/evaluate", { key: keys.client, body: { environment: "development", context: { key: "u" } } })
    expect(lane.status).toBe(500)
  })
  it("still serves requests without a body", async () => {
    expect((await request(base, "GET", "/drained/health")).status).toBe(200)
  })
})
