/**
 * Device cookies through a real server (SQLite): a browser that signed in with a password gets a
 * device cookie, and while a flood from many addresses keeps the ordinary hashing queue full (503
 * for everyone else), its next sign-in as that person takes the device lane and gets in at the
 * first try. A forged cookie, another person's, or one beyond the email's lane attempts gets no
 * priority; a wrong password with a valid cookie gets the very answer it gets without one.
 * Addresses come from `X-Forwarded-For` behind a trusted loopback proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { DEVICE_BURST, HASH_QUEUE, HASHES_IN_FLIGHT } from "../../src/domain/people/SignInLoad.js"
import { SignInGuard } from "../../src/services/people/SignInGuard.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"
import { deviceCookieOf, makePerson, PASSWORD, setCookieLine } from "./people.js"

let t: TestServer
beforeAll(async () => {
  t = await startServer(freshStorage("sqlite"), { lane: { trustProxy: "loopback" } })
  await t.run(Effect.forEach(["kate@example.com", "bob@example.com", "budget@example.com", "flooded@example.com"], (email) => makePerson(email)))
})
afterAll(async () => {
  await t?.close()
})

const login = (email: string, password: string, address: string, cookie?: string) =>
  request(t.url, "POST", "/v1/auth/login", {
    body: { email, password },
    headers: { "x-forwarded-for": address, ...(cookie === undefined ? {} : { cookie }) }
  })

/** Signs in once (no flood), returning the device cookie the answer sets. */
const deviceCookieFor = async (email: string, address: string): Promise<string> => {
  const reply = await login(email, PASSWORD, address)
  expect(reply.status, reply.text).toBe(200)
  return deviceCookieOf(reply)
}

/** Runs `body` while the ordinary hashing queue is full (every place and every waiting spot held). */
const whileQueueFull = async <A>(body: () => Promise<A>): Promise<A> => {
  const holders = await t.run(Effect.flatMap(SignInGuard, (guard) =>
    Effect.forEach(Array.from({ length: HASHES_IN_FLIGHT + HASH_QUEUE }), () => Effect.forkDaemon(guard.hashing(Effect.never)))))
  await new Promise((resolve) => setTimeout(resolve, 50))
  try {
    return await body()
  } finally {
    await t.run(Fiber.interruptAll(holders))
  }
}

const BUSY = { error: { code: "unavailable", message: "Too many sign-ins at once; try again in 1 second." } }
const INVALID = { error: { code: "unauthorized", message: "Invalid email or password" } }

describe("device cookies", () => {
  it("a password sign-in sets an HttpOnly, SameSite=Strict device cookie beside the session's", async () => {
    const reply = await login("kate@example.com", PASSWORD, "198.51.100.10")
    expect(reply.status).toBe(200)
    expect(setCookieLine(reply.headers, "flagport_device")).toMatch(
      /^flagport_device=[A-Za-z0-9_-]+\.[0-9a-z]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+; Max-Age=7776000; Path=\/; HttpOnly; SameSite=Strict$/
    )
    // A failed sign-in sets none.
    expect((await login("kate@example.com", "not kate's password", "198.51.100.10")).headers.getSetCookie()).toEqual([])
  })

  it("with the queue full, only a valid device cookie for the email gets through; forged, other people's and absent ones get 503", async () => {
    const kate = await deviceCookieFor("kate@example.com", "198.51.100.11")
    const bob = await deviceCookieFor("bob@example.com", "198.51.100.12")
    const [name, value] = kate.split("=") as [string, string]
    const forged = `${name}=${value.slice(0, -2)}${value.endsWith("AA") ? "BB" : "AA"}`
    await whileQueueFull(async () => {
      for (const cookie of [undefined, forged, bob, "flagport_device=not-a-cookie"]) {
        const reply = await login("kate@example.com", PASSWORD, "198.51.100.13", cookie)
        expect({ cookie, status: reply.status, body: reply.body }).toEqual({ cookie, status: 503, body: BUSY })
      }
      // Kate's own: a wrong password is the same 401 as ever; the right one signs her in.
      const wrong = await login("kate@example.com", "not kate's password", "198.51.100.13", kate)
      expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 401, body: INVALID })
      const right = await login("kate@example.com", PASSWORD, "198.51.100.13", kate)
      expect(right.status, right.text).toBe(200)
      expect(deviceCookieOf(right)).toMatch(/^flagport_device=/)
    })
  })

  it(`an email has ${DEVICE_BURST} lane attempts at a time: beyond them its sign-ins wait in the ordinary queue`, async () => {
    const cookie = await deviceCookieFor("budget@example.com", "198.51.100.14")
    await whileQueueFull(async () => {
      const statuses: Array<number> = []
      for (let i = 0; i < DEVICE_BURST + 2; i++) statuses.push((await login("budget@example.com", PASSWORD, "198.51.100.15", cookie)).status)
      // The budget refills one a minute: the first DEVICE_BURST pass, then the ordinary queue's 503.
      expect(statuses.slice(0, DEVICE_BURST)).toEqual(Array(DEVICE_BURST).fill(200))
      expect(statuses.slice(DEVICE_BURST)).toEqual([503, 503])
    })
  })

  // Not timed (the machine's load decides how long a hash takes; bench/signin-flood.bench.ts
  // measures it): what is tested is that the holder is never turned away while the flood is.
  it("under a lasting flood of made-up sign-ins from many addresses, a device cookie holder gets in at the first try", async () => {
    const cookie = await deviceCookieFor("flooded@example.com", "198.51.100.16")
    let flooding = true
    let busy = 0
    // 60 clients, each its own address, each sending made-up sign-ins one after another.
    const flood = Array.from({ length: 60 }, async (_, client) => {
      for (let i = 0; flooding; i++) {
        const reply = await login(`made-up-${client}-${i}@example.com`, "not anyone's password", `10.${client}.${i >> 8 & 255}.${i & 255}`)
        if (reply.status === 503) busy++
      }
    })
    try {
      while (busy < 20) await new Promise((resolve) => setTimeout(resolve, 20))
      for (let round = 0; round < 3; round++) {
        const reply = await login("flooded@example.com", PASSWORD, "198.51.100.17", cookie)
        expect(reply.status, reply.text).toBe(200)
      }
    } finally {
      flooding = false
      await Promise.all(flood)
    }
    expect(busy).toBeGreaterThanOrEqual(20)
  }, 60_000)
})
