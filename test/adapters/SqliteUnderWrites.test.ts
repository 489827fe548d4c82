/**
 * SQLite under a burst of writes, through a real server process on a real SQLite file: a fresh connection's
 * `GET /health` must not wait for the burst. Each durable commit (an fsync) used to run on the
 * event loop, behind every write queued before it, so /health answered only about when the last
 * write did; now statements run on worker threads and reads have their own connection.
 *
 * The bound is relative, so that a slow or busy machine slows both sides alike: /health must answer
 * before three quarters of the rest of the burst has passed. Before, it answered after the last
 * write (its query queued behind all of them: ratio 1.0); now, on a 2-core machine at load average
 * 15 to 20, at 0.04 to 0.3.
 */
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshSqliteUrl, keyLines, type ServerProcess, startServer, stopServer } from "../cli/Process.js"
import { request } from "../http/fixtures.js"

const WRITES = 300
const FLAGS = 20

/** GET /health on a new TCP connection (no keep-alive pool): what a load balancer's probe sees. */
const freshHealth = (url: string): Promise<{ readonly status: number; readonly ms: number }> =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const req = httpRequest(`${url}/health`, { agent: false }, (res) => {
      res.resume()
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }))
    })
    req.on("error", reject)
    req.end()
  })

const targeting = (enabled: boolean) => ({
  environment: "production",
  enabled,
  defaultVariationKey: "on",
  offVariationKey: "off",
  rules: [{ conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" }]
})

describe("SQLite: a burst of writes does not hold up other requests", () => {
  let server: ServerProcess
  let serverKey: string

  beforeAll(async () => {
    // Its own process, as in production: the test's HTTP clients do not share the server's event loop.
    server = await startServer(["serve", "--init"], { DATABASE_URL: freshSqliteUrl(), FLAGPORT_LOG_LEVEL: "warn" })
    serverKey = keyLines(server.output().stdout)["SERVER_KEY"]!
    for (let i = 0; i < FLAGS; i++) {
      const created = await request(server.baseUrl, "POST", "/v1/projects/default/flags", {
        key: serverKey,
        body: { key: `f-${i}`, name: `f-${i}`, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
      })
      expect(created.status).toBe(201)
    }
  }, 120_000)

  afterAll(async () => {
    if (server !== undefined) await stopServer(server)
  })

  // Up to three bursts: on a loaded machine the server's own event loop (parsing 300 requests) can
  // hold one probe back by chance; the old code held back every probe, every time.
  it("a fresh /health answers long before the burst ends", { timeout: 120_000, retry: 2 }, async () => {
    let acknowledged = 0
    let lastAcknowledgedAt = 0
    const writes = Array.from({ length: WRITES }, (_, n) =>
      request(server.baseUrl, "PUT", `/v1/projects/default/flags/f-${n % FLAGS}/targeting`, { key: serverKey, body: targeting(n % 2 === 0) }).then(
        (reply) => {
          acknowledged++
          lastAcknowledgedAt = performance.now()
          return reply.status
        }
      )
    )
    // Once the burst is under way (some writes committed, most still queued), probe.
    while (acknowledged < 10) await new Promise((resolve) => setTimeout(resolve, 5))
    const probeStarted = performance.now()
    const health = await freshHealth(server.baseUrl)
    const statuses = await Promise.all(writes)
    const restOfBurstMs = lastAcknowledgedAt - probeStarted

    expect(statuses.every((status) => status === 200)).toBe(true)
    expect(health.status).toBe(200)
    const detail = `/health took ${Math.round(health.ms)} ms, the rest of the burst ${Math.round(restOfBurstMs)} ms`
    expect(health.ms, detail).toBeLessThan(restOfBurstMs * 0.75)
  })
})
