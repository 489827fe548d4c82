/**
 * `GET /v1/projects/{p}/events` through a real server (memory storage): the ready event, one
 * change event per write with its kind, keys, environments, versions, actor and time, resuming
 * with `Last-Event-ID`, who may open it (keys and people), and the stream ending when its key is
 * revoked, its session ends (or idles out: its rechecks are no use of it) or its person leaves the
 * project. Across processes:
 * ManagementEventsProcesses.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { nodeCrypto } from "../../adapters/crypto/NodeCrypto.js"
import { SessionRepository } from "../../src/ports/SessionRepository.js"
import { hashToken } from "../../src/services/people/PeopleSupport.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { Members } from "../../src/services/people/Members.js"
import { Sessions } from "../../src/services/people/Sessions.js"
import { makePerson, seedPeople, type People } from "./people.js"
import { request, startServer, type TestServer } from "./fixtures.js"
import { openStream, type OpenStream, type SseEvent, sleep } from "./sse.js"

const flagBody = (key: string) => ({ key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })

const dataOf = (event: SseEvent) => JSON.parse(event.data) as Record<string, any>

/** Resolves "ended" when the stream ends within `ms`, else "open". */
const endsWithin = (stream: OpenStream, ms: number) =>
  Promise.race([stream.ended.then(() => "ended"), sleep(ms).then(() => "open")])

describe("management events stream", () => {
  let t: TestServer
  let people: People
  const open: Array<OpenStream> = []
  const events = async (headers: Record<string, string>, project = "p1") => {
    const stream = await openStream(t.url, `/v1/projects/${project}/events`, headers)
    open.push(stream)
    return stream
  }
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

  beforeAll(async () => {
    t = await startServer()
    people = await t.run(seedPeople)
  })
  afterAll(async () => {
    for (const stream of open) stream.close()
    await t.close()
  })

  it("starts with `ready`, then one `change` per write with what, where, versions, who and when", async () => {
    const s = await events(bearer(t.keys.scoped))
    expect(s.status).toBe(200)
    expect(s.headers["content-type"]).toBe("text/event-stream; charset=utf-8")
    const ready = await s.event(0)
    expect(ready.event).toBe("ready")
    expect(dataOf(ready)).toEqual({ id: ready.id })

    const before = Date.now()
    expect((await request(t.url, "POST", "/v1/projects/p1/flags", { key: t.keys.scoped, body: flagBody("live") })).status).toBe(201)
    const created = await s.event(1, 2_000)
    expect(created.event).toBe("change")
    const c = dataOf(created)
    expect(created.id).toBe(c.id)
    expect(Number(c.id)).toBeGreaterThan(Number(ready.id))
    expect(c).toMatchObject({
      kind: "flag.created",
      resource: { type: "flag", key: "live" },
      flagKeys: ["live"],
      environments: ["development", "production"],
      version: 1,
      actor: { type: "key" }
    })
    expect(Date.parse(c.at)).toBeGreaterThanOrEqual(before - 1_000)

    const put = await request(t.url, "PUT", "/v1/projects/p1/flags/live/targeting", {
      key: t.keys.scoped,
      body: { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
    })
    expect(put.status).toBe(200)
    const targeted = dataOf(await s.event(2, 2_000))
    expect(targeted).toMatchObject({ kind: "targeting.updated", flagKeys: ["live"], environments: ["production"], version: 2 })
    expect(Number(targeted.id)).toBeGreaterThan(Number(c.id))

    // A write to another project is not on this stream; the next of this project is.
    await request(t.url, "POST", "/v1/projects/p2/flags", { key: t.keys.otherScoped, body: flagBody("elsewhere") })
    await request(t.url, "DELETE", "/v1/projects/p1/flags/live", { key: t.keys.scoped })
    const deleted = dataOf(await s.event(3, 2_000))
    expect(deleted).toMatchObject({ kind: "flag.deleted", flagKeys: ["live"], version: null })
    expect(s.events.map((e) => dataOf(e).resource?.key ?? null)).toEqual([null, "live", "live", "live"])
  })

  it("a person's session with read permission opens it, and their writes name them", async () => {
    const s = await events({ cookie: people.viewer.cookie })
    expect(s.status).toBe(200)
    await s.event(0)
    const created = await request(t.url, "POST", "/v1/projects/p1/flags", { headers: { cookie: people.editor.cookie, origin: t.url }, body: flagBody("by-editor") })
    expect(created.status).toBe(201)
    const event = dataOf(await s.event(1, 2_000))
    expect(event).toMatchObject({ kind: "flag.created", actor: { type: "user", userId: people.editor.id, email: people.editor.email } })
  })

  it("Last-Event-ID resumes after that event: nothing written meanwhile is missed", async () => {
    const first = await events(bearer(t.keys.scoped))
    const ready = await first.event(0)
    first.close()
    await request(t.url, "POST", "/v1/projects/p1/flags", { key: t.keys.scoped, body: flagBody("while-away-1") })
    await request(t.url, "POST", "/v1/projects/p1/flags", { key: t.keys.scoped, body: flagBody("while-away-2") })
    const resumed = await events({ ...bearer(t.keys.scoped), "last-event-id": ready.id! })
    expect((await resumed.event(0)).id).toBe(ready.id)
    expect(dataOf(await resumed.event(1, 2_000)).resource.key).toBe("while-away-1")
    expect(dataOf(await resumed.event(2, 2_000)).resource.key).toBe("while-away-2")
    // An id past the latest (or not an id) starts at the latest.
    const later = await events({ ...bearer(t.keys.scoped), "last-event-id": "999999999" })
    expect(Number((await later.event(0)).id)).toBe(Number(resumed.events[2]!.id))
    const garbage = await events({ ...bearer(t.keys.scoped), "last-event-id": "abc" })
    expect((await garbage.event(0)).id).toBe(resumed.events[2]!.id)
  })

  it("authorization: keys of the project or global, people with read permission; others refused in the envelope", async () => {
    const cases: ReadonlyArray<readonly [string, Record<string, string>, number, string?]> = [
      ["no credentials", {}, 401],
      ["a revoked key", bearer(t.keys.revoked), 401],
      ["a client key", bearer(t.keys.client), 403],
      ["another project's server key", bearer(t.keys.otherScoped), 403],
      ["a global server key", bearer(t.keys.global), 200],
      ["a server key bound to an environment", bearer(t.keys.boundServerOther), 200],
      ["a viewer of p1", { cookie: people.viewer.cookie }, 200],
      ["an admin of p2 only", { cookie: people.otherAdmin.cookie }, 404],
      ["a disabled person", { cookie: people.disabled.cookie }, 401],
      ["an unknown project", bearer(t.keys.global), 404, "nope"]
    ]
    for (const [name, headers, status, project] of cases) {
      const s = await events(headers, project ?? "p1")
      expect({ name, status: s.status }).toEqual({ name, status })
      if (status !== 200) expect(JSON.parse(s.body).error.code, name).toMatch(/^[a-z_]+$/)
      else s.close()
    }
  })

  it("ends when its key is revoked, its session ends or its person leaves the project", async () => {
    const key = await t.run(Effect.flatMap(ApiKeys, (keys) => keys.create({ type: "server", projectId: "p1" })))
    const byKey = await events(bearer(key.secret))
    await byKey.event(0)
    const person = await t.run(makePerson("leaving@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
    const byMember = await events({ cookie: person.cookie })
    await byMember.event(0)
    const signedOut = await t.run(makePerson("signing-out@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
    const bySession = await events({ cookie: signedOut.cookie })
    await bySession.event(0)
    const staying = await events({ cookie: people.viewer.cookie })
    await staying.event(0)

    await t.run(Effect.flatMap(ApiKeys, (keys) => keys.revoke(key.apiKey.id)))
    expect(await endsWithin(byKey, 2_000)).toBe("ended")
    await t.run(Effect.flatMap(Members, (members) => members.remove("p1", person.id)))
    expect(await endsWithin(byMember, 2_000)).toBe("ended")
    await t.run(Effect.flatMap(Sessions, (sessions) => sessions.end(signedOut.cookie.split("=")[1]!)))
    expect(await endsWithin(bySession, 2_000)).toBe("ended")
    expect(await endsWithin(staying, 1_500)).toBe("open")
  })

  it("its rechecks do not keep the session alive: the stream of a tab left open ends when the session idles out", async () => {
    const person = await t.run(makePerson("idle-tab@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
    const hash = hashToken(nodeCrypto, person.cookie.split("=")[1]!)
    const stream = await events({ cookie: person.cookie })
    await stream.event(0)
    const setLastSeen = (at: number) => t.run(Effect.flatMap(SessionRepository, (repo) => repo.touch(hash, new Date(at).toISOString())))
    const lastSeen = () => t.run(Effect.flatMap(SessionRepository, (repo) => Effect.map(repo.find(hash), (found) => Option.getOrThrow(found).lastSeenAt)))

    // Last used two minutes ago: rechecks (every second) would refresh it if they counted as use.
    const twoMinutesAgo = Date.now() - 120_000
    await setLastSeen(twoMinutesAgo)
    await sleep(2_500)
    expect(await lastSeen()).toBe(new Date(twoMinutesAgo).toISOString())
    expect(await endsWithin(stream, 0)).toBe("open")

    // Idle for longer than the idle period (12 h): the next recheck ends the stream.
    await setLastSeen(Date.now() - 12 * 60 * 60 * 1000 - 60_000)
    expect(await endsWithin(stream, 2_500)).toBe("ended")
  })
})
