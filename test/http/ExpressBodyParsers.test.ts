/**
 * Flagport mounted in a real Express app behind each of Express's body parsers: the parser has
 * consumed the request stream, so the mount takes the body from `req.body` (a parsed value, a
 * string or a Buffer). Every POST answers (HttpApi routes and the evaluation lane alike), with the
 * same validation as unparsed; a host that consumed the body and left nothing usable gets an
 * immediate error, never a hang.
 */
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, ManagedRuntime, type Context } from "effect"
import express from "express"
import * as App from "../../adapters/http/serving/App.js"
import { makeHandlers, type FlagportHandlers } from "../../adapters/http/serving/Embed.js"
import * as StorageLayer from "../../adapters/storage/StorageLayer.js"
import { request, seed, type Keys } from "./fixtures.js"

let storage: ManagedRuntime.ManagedRuntime<StorageLayer.Storage, never>
let flagport: FlagportHandlers
let host: Server
let base: string
let keys: Keys

/** Each mount sits behind a different parser, all told to take the JSON bodies Flagport expects. */
const MOUNTS = {
  json: express.json(),
  text: express.text({ type: "application/json" }),
  raw: express.raw({ type: "application/json" })
} as const

beforeAll(async () => {
  storage = ManagedRuntime.make(StorageLayer.memoryStorage)
  const context: Context.Context<StorageLayer.Storage> = await storage.runPromise(Effect.context<StorageLayer.Storage>())
  keys = await storage.runPromise(seed)
  flagport = await makeHandlers({ prefix: "/", services: App.servicesFrom(Layer.succeedContext(context)) })
  const app = express()
  for (const [name, parser] of Object.entries(MOUNTS)) {
    app.use(`/${name}`, parser, flagport.node)
  }
  // A host that drains the body itself and keeps nothing of it.
  app.use("/drained", (req, _res, next) => {
    req.on("end", () => next())
    req.resume()
  }, flagport.node)
  host = app.listen(0, "127.0.0.1")
  await new Promise<void>((resolve) => host.once("listening", resolve))
  base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
})
afterAll(async () => {
  host?.closeAllConnections()
  await new Promise<void>((resolve) => host?.close(() => resolve()))
  await flagport?.dispose()
  await storage?.dispose()
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
    expect((reply.body as { error: { message: string } }).error.message).toContain("Mount Flagport before the body parser")
    const lane = await request(base, "POST", "/drained/v1/evaluate", { key: keys.client, body: { environment: "development", context: { key: "u" } } })
    expect(lane.status).toBe(500)
  })
  it("still serves requests without a body", async () => {
    expect((await request(base, "GET", "/drained/health")).status).toBe(200)
  })
})
