/**
 * `GET /v1/stream` with a real `EventSource` (the `eventsource` package, the WHATWG EventSource
 * for Node): as a browser connects, with a stream token in the URL and no headers; with a key in
 * a header through a custom fetch; and a refused token closes the EventSource for good (it does
 * not retry a 401), after which a client asks for a new token.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { EventSource } from "eventsource"
import { principalOf } from "../../src/domain/auth/Policy.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { StreamTokens } from "../../src/services/auth/StreamTokens.js"
import { request, startServer, type TestServer } from "./fixtures.js"

const open: Array<{ close: () => unknown }> = []
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close()
})

const serve = async () => {
  const t = await startServer()
  open.push(t)
  return t
}

/** Collects an EventSource's messages. */
const collect = (source: EventSource) => {
  open.push(source)
  const messages: Array<MessageEvent<string>> = []
  source.addEventListener("message", (event) => messages.push(event))
  const nth = async (n: number) => {
    const started = Date.now()
    while (messages.length <= n) {
      if (Date.now() - started > 5_000) throw new Error(`no message #${n}`)
      await new Promise((r) => setTimeout(r, 10))
    }
    return messages[n]!
  }
  return { messages, nth }
}

const configEtag = async (t: TestServer) =>
  (await request(t.url, "GET", "/v1/config?environment=development", { key: t.keys.client })).headers.get("etag")

const changeSomething = (t: TestServer, key: string) =>
  request(t.url, "POST", "/v1/projects/p1/flags", {
    key: t.keys.scoped,
    body: { key, name: key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
  })

describe("EventSource", () => {
  it("connects with a stream token in the URL and gets an event per change, the ETag as its id", async () => {
    const t = await serve()
    const key = await t.run(Effect.flatMap(ApiKeys, (keys) => keys.authenticate(t.keys.client)))
    if (key._tag === "None") throw new Error("no key")
    const { token } = await t.run(
      Effect.flatMap(StreamTokens, (tokens) => tokens.issue(principalOf(key.value), { environment: "development" }))
    )
    const { nth } = collect(new EventSource(`${t.url}/v1/stream?token=${encodeURIComponent(token)}`))
    const first = await nth(0)
    expect(first.lastEventId).toBe(await configEtag(t))
    expect(JSON.parse(first.data)).toMatchObject({ type: "refetchEvaluation", etag: first.lastEventId })
    expect((await changeSomething(t, "via-eventsource")).status).toBe(201)
    const second = await nth(1)
    expect(second.lastEventId).toBe(await configEtag(t))
    expect(second.lastEventId).not.toBe(first.lastEventId)
  })

  it("connects with a key in the Authorization header (custom fetch)", async () => {
    const t = await serve()
    const source = new EventSource(`${t.url}/v1/stream?environment=development`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, authorization: `Bearer ${t.keys.client}` } })
    })
    const { nth } = collect(source)
    expect((await nth(0)).lastEventId).toBe(await configEtag(t))
  })

  it("closes for good on a refused token (401)", async () => {
    const t = await serve()
    const source = new EventSource(`${t.url}/v1/stream?token=v1.forged.token`)
    open.push(source)
    const failed = await new Promise<{ code: number | undefined }>((resolve) =>
      source.addEventListener("error", (event) => resolve({ code: (event as unknown as { code?: number }).code }))
    )
    expect(failed.code).toBe(401)
    expect(source.readyState).toBe(EventSource.CLOSED)
  })
})
