/**
 * The project admins' configuration stays theirs in the audit log and the events stream, through a
 * real server (memory storage): a viewer or an editor sees an entry about a webhook, a key, a
 * member or another person with its resource id and action only (no before/after, no environment),
 * and its event with no environments; a project admin, a global admin and a key see them whole;
 * flags stay whole for everyone; a person sees their own membership whole.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { request, startServer, type TestServer } from "./fixtures.js"
import { asPerson, makePerson, type People, seedPeople, setRole } from "./people.js"
import { openStream, type OpenStream, type SseEvent, sleep } from "./sse.js"

interface Entry {
  readonly action: string
  readonly resource: { readonly type: string; readonly key: string }
  readonly environment?: string
  readonly before: unknown
  readonly after: unknown
}

const HOOK_URL = "https://hooks.example.com/T0123/B456/the-credential-itself"
const dataOf = (event: SseEvent) => JSON.parse(event.data) as { kind: string; resource: { type: string; key: string }; environments: Array<string>; flagKeys: Array<string> }

describe("what readers without manage see of webhooks, keys and members", () => {
  let t: TestServer
  let people: People
  const streams: Array<OpenStream> = []
  const ids = { webhook: "", key: "" }

  const entries = async (headers: Record<string, string>): Promise<ReadonlyArray<Entry>> => {
    const reply = await request(t.url, "GET", "/v1/projects/p1/audit?limit=200", { headers })
    expect(reply.status, reply.text).toBe(200)
    return (reply.body as { data: Array<Entry> }).data
  }
  const of = (all: ReadonlyArray<Entry>, type: string, key: string) => all.find((e) => e.resource.type === type && e.resource.key === key)!
  const cookie = (who: keyof People) => ({ cookie: people[who].cookie })

  beforeAll(async () => {
    t = await startServer()
    people = await t.run(seedPeople)
    // Streams open before the writes, so each write's event reaches them.
    for (const who of ["viewer", "projectAdmin"] as const) {
      const stream = await openStream(t.url, "/v1/projects/p1/events", cookie(who))
      streams.push(stream)
      await stream.event(0)
    }
    const key = { authorization: `Bearer ${t.keys.global}` }
    ids.webhook = ((await request(t.url, "POST", "/v1/projects/p1/webhooks", { headers: key, body: { url: HOOK_URL, events: ["flag.created"] } })).body as { id: string }).id
    ids.key = ((await request(t.url, "POST", "/v1/projects/p1/keys", { headers: key, body: { type: "server", name: "deploy-bot", environment: "production" } })).body as { id: string }).id
    await t.run(setRole("p1", people.editor.id, "editor"))
    await t.run(setRole("p1", people.viewer.id, "viewer"))
    expect((await request(t.url, "POST", "/v1/projects/p1/flags", { headers: key, body: { key: "seen", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] } })).status).toBe(201)
  })
  afterAll(async () => {
    for (const stream of streams) stream.close()
    await t?.close()
  })

  it.each(["viewer", "editor"] as const)("a %s sees the webhook, the key and another member with the id and the action only", async (who) => {
    const all = await entries(cookie(who))
    const hook = of(all, "webhook", ids.webhook)
    expect(hook).toMatchObject({ action: "webhook.created", before: null, after: null })
    expect(JSON.stringify(all)).not.toContain("the-credential-itself")
    const key = of(all, "key", ids.key)
    expect(key).toMatchObject({ action: "key.created", before: null, after: null })
    expect(key.environment).toBeUndefined()
    expect(JSON.stringify(all)).not.toContain("deploy-bot")
    const other = who === "viewer" ? people.editor : people.viewer
    expect(of(all, "member", other.id)).toMatchObject({ action: "member.put", before: null, after: null })
    expect(JSON.stringify(all)).not.toContain(other.email)
    // Their own membership, and the flags, whole.
    expect(of(all, "member", people[who].id).after).not.toBeNull()
    expect(of(all, "flag", "seen").after).toMatchObject({ key: "seen" })
  })

  it.each([["projectAdmin", "a project admin"], ["globalAdmin", "a global admin"], ["key", "a key"]] as const)("%s (%s) sees them whole", async (who, _name) => {
    const all = await entries(who === "key" ? { authorization: `Bearer ${t.keys.scoped}` } : cookie(who))
    expect(of(all, "webhook", ids.webhook).after).toMatchObject({ url: HOOK_URL })
    expect(of(all, "key", ids.key)).toMatchObject({ environment: "production", after: { name: "deploy-bot" } })
    expect(of(all, "member", people.editor.id).after).not.toBeNull()
  })

  it("the events stream: a viewer's key event names no environment, an admin's names the key's", async () => {
    const [viewer, admin] = streams
    const keyEvent = async (stream: OpenStream) => {
      for (let n = 1; ; n++) {
        const event = dataOf(await stream.event(n, 2_000))
        if (event.resource.type === "key") return event
      }
    }
    expect(await keyEvent(viewer!)).toMatchObject({ kind: "key.created", resource: { key: ids.key }, environments: [] })
    expect(await keyEvent(admin!)).toMatchObject({ kind: "key.created", resource: { key: ids.key }, environments: ["production"] })
  })

  it("a stream ends when its person's role changes what they read (made admin, or no longer one); not for another change", async () => {
    const ended = (stream: OpenStream, ms: number) => Promise.race([stream.ended.then(() => "ended"), sleep(ms).then(() => "open")])
    const promoted = await t.run(makePerson("promoted@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
    const demoted = await t.run(makePerson("demoted@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
    const moved = await t.run(makePerson("moved@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
    const [up, down, sideways] = await Promise.all([promoted, demoted, moved].map((person) => openStream(t.url, "/v1/projects/p1/events", { cookie: person.cookie })))
    streams.push(up!, down!, sideways!)
    await Promise.all([up!.event(0), down!.event(0), sideways!.event(0)])
    await t.run(setRole("p1", promoted.id, "admin"))
    await t.run(setRole("p1", demoted.id, "editor"))
    await t.run(setRole("p1", moved.id, "editor"))
    expect(await ended(up!, 2_500)).toBe("ended")
    expect(await ended(down!, 2_500)).toBe("ended")
    expect(await ended(sideways!, 0)).toBe("open")
  })

  it("a viewer asking as a person reads nothing more through the dashboard's origin", async () => {
    const reply = await asPerson(t.url, people.viewer.cookie, "GET", `/v1/projects/p1/audit?resourceType=webhook&resourceKey=${ids.webhook}`)
    expect((reply.body as { data: Array<Entry> }).data).toEqual([expect.objectContaining({ before: null, after: null })])
  })
})
