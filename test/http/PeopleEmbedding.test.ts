/**
 * People when Flagport is mounted under a prefix: the node and web handlers take the session
 * cookie, check the `Origin` of cookie writes against the origin the request reached (a web
 * Request carries its host in its URL, not in a Host header), and hand out setup links with the
 * prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { FlagportHandlers } from "../../adapters/http/serving/Embed.js"
import { PeopleMessages } from "../../src/domain/auth/PeopleMessages.js"
import { request } from "./fixtures.js"
import { type Host, startHost } from "./host.js"
import { makePerson, PASSWORD, type Person, sessionCookieOf } from "./people.js"

let host: Host
let flagport: FlagportHandlers
let base: string
let admin: Person
beforeAll(async () => {
  host = await startHost()
  flagport = await host.mount({ prefix: "/flags" })
  base = await host.listen((req, res) => flagport.node(req, res))
  admin = await host.run(makePerson("mounted-admin@example.com", { admin: true }))
})
afterAll(async () => {
  await host?.close()
})

const flag = (key: string) => ({ key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
const crossSite = (why: string) => ({ error: { code: "forbidden", message: PeopleMessages.crossSite, details: [{ path: "Origin", message: why }] } })

describe("people under a prefix", () => {
  it("node handler: sign in, write with the server's Origin (another is refused), setup links with the prefix", async () => {
    const login = await request(base, "POST", "/flags/v1/auth/login", { body: { email: "mounted-admin@example.com", password: PASSWORD } })
    expect(login.status, login.text).toBe(200)
    const cookie = sessionCookieOf(login)
    expect((await request(base, "POST", "/flags/v1/projects/p1/flags", { headers: { cookie, origin: base }, body: flag("node-a") })).status).toBe(201)
    const refused = await request(base, "POST", "/flags/v1/projects/p1/flags", { headers: { cookie, origin: "http://evil.example" }, body: flag("node-b") })
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 403,
      body: crossSite(`expected ${base} (the origin this request reached); got http://evil.example`)
    })
    const invited = await request(base, "POST", "/flags/v1/users", { headers: { cookie: admin.cookie, origin: base }, body: { email: "node-invitee@example.com" } })
    expect(invited.status, invited.text).toBe(201)
    expect((invited.body as { setupUrl: string }).setupUrl.startsWith(`${base}/flags/ui/setup#token=`)).toBe(true)
  })

  it("web handler: the origin is the request URL's; setup links start with it and the prefix", async () => {
    const post = (path: string, body: unknown, origin: string) =>
      flagport.web(new Request(`http://host.example/flags${path}`, {
        method: "POST",
        headers: { cookie: admin.cookie, origin, "content-type": "application/json" },
        body: JSON.stringify(body)
      }))
    expect((await post("/v1/projects/p1/flags", flag("web-a"), "http://host.example")).status).toBe(201)
    const refused = await post("/v1/projects/p1/flags", flag("web-b"), "http://evil.example")
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 403,
      body: crossSite("expected http://host.example (the origin this request reached); got http://evil.example")
    })
    const invited = await post("/v1/users", { email: "web-invitee@example.com" }, "http://host.example")
    expect(invited.status).toBe(201)
    expect(((await invited.json()) as { setupUrl: string }).setupUrl.startsWith("http://host.example/flags/ui/setup#token=")).toBe(true)
    const me = await flagport.web(new Request("http://host.example/flags/v1/me", { headers: { cookie: admin.cookie } }))
    expect(me.status).toBe(200)
  })
})
