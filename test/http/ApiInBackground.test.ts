/**
 * `makeHandlers({ apiInBackground: true })` (what `flagport serve` uses) resolves once the
 * evaluation lane can answer and builds the HttpApi app behind it: an evaluation is answered before
 * `ready`, a request for the HttpApi app made meanwhile waits for it (node and web handlers alike),
 * and the handlers answer as those built in the foreground do.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { FlagportHandlers } from "../../adapters/http/serving/Embed.js"
import { request, type Keys } from "./fixtures.js"
import { type Host, startHost } from "./host.js"

let host: Host
let keys: Keys

beforeAll(async () => {
  host = await startHost()
  keys = host.keys
})
afterAll(async () => {
  await host?.close()
})

const listen = (flagport: FlagportHandlers) => host.listen((req, res) => flagport.node(req, res))

describe("the HttpApi app built in the background", () => {
  it("answers an evaluation before it is built, and its own routes once it is", async () => {
    const flagport = await host.mount({ apiInBackground: true })
    let built = false
    void flagport.ready.then(() => (built = true))
    const base = await listen(flagport)
    // Both asked before `ready`: the management request waits for the app, the lane does not.
    const health = request(base, "GET", "/health")
    const config = request(base, "GET", "/v1/config?environment=development", { key: keys.client })
    const web = flagport.web(new Request("http://flagport.test/v1/projects", { headers: { authorization: `Bearer ${keys.global}` } }))
    expect((await config).status).toBe(200)
    expect((await health).body).toEqual({ status: "ok", database: "ok" })
    expect((await web).status).toBe(200)
    await flagport.ready
    expect(built).toBe(true)
    expect((await request(base, "GET", "/openapi.json")).body).toEqual(flagport.openApi())
  })

  it("answers as the handlers built in the foreground do", async () => {
    const background = await host.mount({ apiInBackground: true })
    const foreground = await host.mount({})
    await background.ready
    const [a, b] = await Promise.all([listen(background), listen(foreground)])
    for (const [method, path, key] of [
      ["GET", "/health", undefined],
      ["GET", "/v1/projects", keys.global],
      ["GET", "/v1/projects/p1/flags", keys.global],
      ["GET", "/v1/config?environment=development", keys.client],
      ["GET", "/v1/nothing-here", keys.global]
    ] as const) {
      const [x, y] = await Promise.all([request(a, method, path, key === undefined ? {} : { key }), request(b, method, path, key === undefined ? {} : { key })])
      expect([path, x.status, x.body]).toEqual([path, y.status, y.body])
    }
  })
})
