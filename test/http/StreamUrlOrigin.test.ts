/**
 * The stream URLs OFREP hands out never carry what a caller wrote into Host or X-Forwarded-*
 * beyond a valid host and http/https (issue 26, item 6): with FLAGPORT_PUBLIC_URL set, nothing
 * from the request goes in at all; without it, a scheme other than http/https is replaced by
 * http and a host that is not a host gives no stream URL.
 */
import * as Http from "node:http"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option } from "effect"
import { isValidHost } from "../../adapters/http/shared/RequestOrigin.js"
import { parsePublicUrl, publicUrlConfig } from "../../adapters/settings/PublicUrl.js"
import { startServer } from "./fixtures.js"

const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
})

/** A bulk evaluation with headers fetch would not let us set (Host). */
const bulk = (base: string, key: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: { eventStreams?: Array<{ url: string }> } }>((resolve, reject) => {
    const body = JSON.stringify({ context: { targetingKey: "u" } })
    const req = Http.request(`${base}/ofrep/v1/evaluate/flags`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "flagport-environment": "development",
        ...headers
      }
    })
    req.on("response", (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }))
    })
    req.on("error", reject)
    req.end(body)
  })

const evil = [
  { host: "evil.example" },
  { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "javascript:alert(1)//" },
  { host: "evil.example/<script>", "x-forwarded-proto": "javascript:alert(1)//" }
]

describe("stream URLs", () => {
  it("with a public URL, are built from it whatever Host and X-Forwarded-* say", async () => {
    for (const trustProxy of [false, true]) {
      const t = await startServer(undefined, { lane: { trustProxy, publicUrl: "https://flags.example.com/base/" } })
      closers.push(t.close)
      for (const headers of evil) {
        const reply = await bulk(t.url, t.keys.client, headers)
        expect(reply.status).toBe(200)
        const url = reply.body.eventStreams?.[0]?.url ?? ""
        expect(url).toMatch(/^https:\/\/flags\.example\.com\/base\/v1\/stream\?token=v1\./)
        expect(url).not.toContain("evil")
      }
    }
  })

  it("without one, take only http/https and a valid host from the request", async () => {
    const t = await startServer(undefined, { lane: { trustProxy: true } })
    closers.push(t.close)
    const port = new URL(t.url).port
    const forged = await bulk(t.url, t.keys.client, { "x-forwarded-proto": "javascript:alert(1)//", "x-forwarded-host": "flags.example.com" })
    expect(forged.body.eventStreams?.[0]?.url).toMatch(/^http:\/\/flags\.example\.com\/v1\/stream\?token=/)
    // A proxy that appends: the client's own values come first, the proxy's last; the last counts.
    const appended = await bulk(t.url, t.keys.client, { "x-forwarded-proto": "http, https", "x-forwarded-host": "evil.example, flags.example.com" })
    expect(appended.body.eventStreams?.[0]?.url).toMatch(/^https:\/\/flags\.example\.com\/v1\/stream\?token=/)
    const upper = await bulk(t.url, t.keys.client, { "x-forwarded-proto": "HTTPS", "x-forwarded-host": `127.0.0.1:${port}` })
    expect(upper.body.eventStreams?.[0]?.url).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${port}/v1/stream\\?token=`))
    for (const host of ["evil.example/<script>", "evil.example@x", "a b", "evil.example:99999", "javascript:alert(1)"]) {
      const reply = await bulk(t.url, t.keys.client, { "x-forwarded-host": host })
      expect(reply.status).toBe(200)
      expect(reply.body.eventStreams).toEqual([])
    }
  })

  it("FLAGPORT_PUBLIC_URL is read and held to its rules", async () => {
    const read = (value: string) =>
      Effect.runSync(Effect.either(Effect.withConfigProvider(publicUrlConfig, ConfigProvider.fromMap(new Map([["FLAGPORT_PUBLIC_URL", value]])))))
    expect(read("https://flags.example.com/")).toEqual(Either.right(Option.some("https://flags.example.com")))
    expect(read("")).toEqual(Either.right(Option.none()))
    for (const bad of ["flags.example.com", "javascript:alert(1)", "https://u:p@flags.example.com", "https://flags.example.com/?a=1", "https://x/#f"]) {
      expect(Either.isLeft(read(bad))).toBe(true)
    }
    expect(Either.isLeft(parsePublicUrl("ftp://flags.example.com"))).toBe(true)
    expect(isValidHost("[::1]:8080")).toBe(true)
    expect(isValidHost("[::1]x")).toBe(false)
    expect(isValidHost("flags.example.com:443")).toBe(true)
    expect(isValidHost("")).toBe(false)

    process.env.FLAGPORT_PUBLIC_URL = "https://public.example.com"
    try {
      const t = await startServer()
      closers.push(t.close)
      const reply = await bulk(t.url, t.keys.client, { host: "evil.example" })
      expect(reply.body.eventStreams?.[0]?.url).toMatch(/^https:\/\/public\.example\.com\/v1\/stream\?token=/)
    } finally {
      delete process.env.FLAGPORT_PUBLIC_URL
    }
  })
})
