/**
 * An unauthenticated sign-in flood, through a real server (SQLite): a made-up setup token costs no
 * password hashing, each client address has a budget of attempts (429 with Retry-After beyond it,
 * before any hashing), and the Argon2 operations running and waiting are bounded (503 with
 * `Retry-After: 1` beyond them). Addresses come from `X-Forwarded-For` behind a trusted loopback
 * proxy, as a real proxy would report its clients.
 */
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Metric } from "effect"
import { ADDRESS_BURST, HASH_QUEUE, HASHES_IN_FLIGHT } from "../../src/domain/people/SignInLoad.js"
import * as ServiceMetrics from "../../src/services/operations/ServiceMetrics.js"
import { SignInFailureRepository } from "../../src/ports/SignInFailureRepository.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"
import { asPerson, makePerson, PASSWORD, type Person } from "./people.js"

let t: TestServer
let admin: Person
beforeAll(async () => {
  t = await startServer(freshStorage("sqlite"), { lane: { trustProxy: "loopback" } })
  admin = await t.run(makePerson("flood-admin@example.com", { admin: true }))
})
afterAll(async () => {
  await t?.close()
})

/** Argon2 operations this process has started so far (the metrics registry is the process's). */
const hashes = () => Effect.runSync(Metric.value(ServiceMetrics.passwordHashes)).count
/** Sign-ins refused for load and for the address's budget so far, wherever they were refused (the front or the use case). */
const refusedBusy = () => Effect.runSync(Metric.value(ServiceMetrics.signInFailures.busy)).count
const refusedLimited = () => Effect.runSync(Metric.value(ServiceMetrics.signInFailures.addressLimited)).count
const from = (address: string) => ({ "x-forwarded-for": address })
const login = (email: string, password: string, address: string) =>
  request(t.url, "POST", "/v1/auth/login", { body: { email, password }, headers: from(address) })
const setup = (token: string, password: string, address: string) =>
  request(t.url, "POST", "/v1/auth/setup", { body: { token, password }, headers: from(address) })

describe("an unauthenticated sign-in flood", () => {
  it("a setup with a made-up token is refused before any hashing; a real one hashes once", async () => {
    const before = hashes()
    for (let i = 0; i < 5; i++) {
      const reply = await setup(`made-up-token-${i}`, "a long enough password", "198.51.100.1")
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 400,
        body: { error: { code: "invalid_request", message: "Setup link is invalid or has expired", details: [] } }
      })
    }
    expect(hashes()).toBe(before)
    const invited = await asPerson(t.url, admin.cookie, "POST", "/v1/users", { email: "flood-invited@example.com" })
    const token = decodeURIComponent((invited.body as { setupUrl: string }).setupUrl.split("#token=")[1]!)
    expect((await setup(token, "a long enough password", "198.51.100.1")).status).toBe(200)
    expect(hashes()).toBe(before + 1)
  })

  it(`each address has ${ADDRESS_BURST} attempts: then 429 with Retry-After, no hashing and no failure row; other addresses go on`, async () => {
    await t.run(makePerson("flood-victim@example.com"))
    const address = "198.51.100.2"
    // The budget refills one attempt every couple of seconds, so on a slow machine a few more
    // than the burst may pass while these run; never fewer.
    let answered = 0
    for (; answered < 2 * ADDRESS_BURST; answered++) {
      const reply = await login(`made-up-${answered}@example.com`, "not anyone's password", address)
      if (reply.status === 429) break
      expect(reply.status).toBe(401)
    }
    expect(answered).toBeGreaterThanOrEqual(ADDRESS_BURST)
    expect(answered).toBeLessThan(2 * ADDRESS_BURST)
    // The budget refills continuously, so one of the next attempts may just have earned its
    // place; the others are refused, before any hashing or database write, setups alike.
    const before = hashes()
    const limitedBefore = refusedLimited()
    const next = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => login(`made-up-last-${i}@example.com`, "not anyone's password", address)),
      setup("made-up-token", "a long enough password", address)
    ])
    const limited = next.filter((reply) => reply.status === 429)
    expect(limited.length, JSON.stringify(next.map((reply) => reply.status))).toBeGreaterThanOrEqual(next.length - 1)
    for (const reply of limited) {
      expect((reply.body as { error: { code: string } }).error.code).toBe("rate_limited")
      expect(Number(reply.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    }
    expect(refusedLimited() - limitedBefore).toBe(limited.length) // each refusal counted once
    const answeredLogins = next.slice(0, 4).filter((reply) => reply.status !== 429).length
    expect(hashes() - before).toBe(answeredLogins) // a made-up setup token is never hashed
    const rows = await t.run(
      Effect.forEach([0, 1, 2, 3], (i) => Effect.flatMap(SignInFailureRepository, (f) => f.since(`made-up-last-${i}@example.com`, "2000-01-01T00:00:00.000Z")))
    )
    expect(rows.filter((times) => times.length > 0).length).toBe(answeredLogins)
    // Another address, the right password: in.
    expect((await login("flood-victim@example.com", PASSWORD, "198.51.100.3")).status).toBe(200)
  })

  it("a refused attempt is answered from its headers alone: its body is never waited for, nothing of it decoded", async () => {
    const address = "198.51.100.5"
    for (let i = 0; i < 2 * ADDRESS_BURST; i++) {
      if ((await login(`made-up-headers-${i}@example.com`, "not anyone's password", address)).status === 429) break
    }
    // Headers announcing a body that never comes: the app would wait for it (until the request
    // timeout); the guard's refusal needs only the address.
    const started = performance.now()
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const url = new URL(t.url)
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/v1/auth/login",
        headers: { "content-type": "application/json", "content-length": "64", ...from(address) }
      }, (res) => {
        let body = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => (body += chunk))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      })
      req.on("error", reject)
      req.flushHeaders()
      setTimeout(() => req.destroy(new Error("no answer within 5 s")), 5_000).unref()
    })
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(answer.status).toBe(429)
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: "rate_limited", message: expect.stringMatching(/^Too many sign-in attempts from your address; try again in \d+ seconds\.$/) }
    })
    expect(Number(answer.headers["retry-after"])).toBeGreaterThanOrEqual(1)
    expect(answer.headers["content-type"]).toBe("application/json")
    expect(answer.headers["x-content-type-options"]).toBe("nosniff")
  })

  it("a successful sign-in gives its attempt back: people behind one address who type their password right are never held back", async () => {
    await t.run(makePerson("flood-office@example.com"))
    for (let i = 0; i < ADDRESS_BURST + 10; i++) {
      const reply = await login("flood-office@example.com", PASSWORD, "198.51.100.4")
      expect(reply.status, `attempt ${i}`).toBe(200)
    }
  })

  it(`at most ${HASHES_IN_FLIGHT} hashing and ${HASH_QUEUE} waiting: beyond, 503 with Retry-After: 1 and no hashing`, async () => {
    const before = hashes()
    const busyBefore = refusedBusy()
    const replies = await Promise.all(
      Array.from({ length: 150 }, (_, i) => login(`burst-${i}@example.com`, "not anyone's password", `203.0.113.${i + 1}`))
    )
    const statuses = replies.map((reply) => reply.status)
    const busy = replies.filter((reply) => reply.status === 503)
    expect(statuses.every((s) => s === 401 || s === 503), JSON.stringify(statuses)).toBe(true)
    expect(busy.length, JSON.stringify(statuses)).toBeGreaterThan(0)
    for (const reply of busy) {
      expect(reply.body).toEqual({ error: { code: "unavailable", message: "Too many sign-ins at once; try again in 1 second." } })
      expect(reply.headers.get("retry-after")).toBe("1")
    }
    expect(refusedBusy() - busyBefore).toBe(busy.length) // each refusal counted once
    // Only the answered attempts were hashed: a refused one cost nothing.
    expect(hashes() - before).toBe(statuses.filter((s) => s === 401).length)
  })
})
