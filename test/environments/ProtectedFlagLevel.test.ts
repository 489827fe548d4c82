/**
 * Flag-level writes into a protected environment (issue 28, "nothing in a protected environment
 * changes by a person's hand"), through a real server on SQLite and PostgreSQL: a person (an
 * editor, a project admin) is refused with 409 `change_request_required` when deleting a flag,
 * rewriting or removing a variation, or changing or deleting a segment that a protected
 * environment's targeting names, and nothing changes; a server key still writes (its audit entry
 * names it); a file applied by a person is refused whole; what serves nothing differently stays
 * open; an unprotected project is unaffected.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { asPerson, makePerson, type Person } from "../http/people.js"

const REFUSED = { error: { code: "change_request_required", message: "Changes to production need an approved change request" } }
const VARIATIONS = [{ key: "a", value: "A" }, { key: "b", value: "B" }, { key: "c", value: "C" }]
const usingSegment = (environment: string, segmentKey: string) => ({
  environment,
  enabled: true,
  defaultVariationKey: "a",
  offVariationKey: "b",
  rules: [{ conditions: [{ operator: "inSegment", values: [segmentKey] }], variationKey: "a" }]
})

describe.each(["sqlite", "postgres"] as const)("flag-level writes into a protected environment (%s)", (backend) => {
  let t: TestServer
  let people: Record<"editor" | "admin", Person>
  const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
  const state = async () => ({
    flags: (await admin("GET", "/v1/projects/p1/flags")).body,
    segments: (await admin("GET", "/v1/projects/p1/segments")).body
  })

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    people = {
      editor: await t.run(makePerson("edna@example.com", { projects: [{ projectId: "p1", role: "editor" }, { projectId: "p2", role: "editor" }] })),
      admin: await t.run(makePerson("ada@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
    }
    for (const projectId of ["p1", "p2"]) {
      for (const key of ["f", "g"]) {
        const made = await admin("POST", `/v1/projects/${projectId}/flags`, { key, type: "string", variations: VARIATIONS })
        expect(made.status, made.text).toBe(201)
      }
      for (const key of ["beta", "devs"]) {
        const made = await admin("POST", `/v1/projects/${projectId}/segments`, { key, name: key, conditions: [{ attribute: "country", operator: "in", values: ["NZ"] }] })
        expect(made.status, made.text).toBe(201)
      }
      expect((await admin("PUT", `/v1/projects/${projectId}/flags/f/targeting`, usingSegment("production", "beta"))).status).toBe(200)
      expect((await admin("PUT", `/v1/projects/${projectId}/flags/f/targeting`, usingSegment("development", "devs"))).status).toBe(200)
    }
    expect((await admin("PATCH", "/v1/projects/p1/environments/production", { protected: true })).status).toBe(200)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it.each(["editor", "admin"] as const)("a %s's flag delete, variation rewrite or removal, and change to a segment production uses are refused; nothing changes", async (who) => {
    const before = await state()
    const attempts: ReadonlyArray<readonly [string, string, unknown?]> = [
      ["DELETE", "/v1/projects/p1/flags/g"],
      ["PATCH", "/v1/projects/p1/flags/g", { variations: [{ key: "a", value: "changed" }, VARIATIONS[1], VARIATIONS[2]] }],
      ["PATCH", "/v1/projects/p1/flags/g", { variations: [VARIATIONS[0], VARIATIONS[1]] }],
      ["PATCH", "/v1/projects/p1/flags/g", { name: "renamed too", variations: [{ key: "c", value: "C2" }, VARIATIONS[0], VARIATIONS[1]] }],
      ["PATCH", "/v1/projects/p1/segments/beta", { conditions: [] }],
      ["PATCH", "/v1/projects/p1/segments/beta", { name: "Beta" }],
      ["DELETE", "/v1/projects/p1/segments/beta"]
    ]
    for (const [method, path, body] of attempts) {
      const reply = await asPerson(t.url, people[who].cookie, method, path, body)
      expect({ status: reply.status, body: reply.body }, `${method} ${path} ${JSON.stringify(body)}`).toEqual({ status: 409, body: REFUSED })
    }
    expect(await state()).toEqual(before)
  })

  it.each(["editor", "admin"] as const)("a %s still renames, describes, adds variations, and changes a segment only development uses", async (who) => {
    const cookie = people[who].cookie
    const renamed = await asPerson(t.url, cookie, "PATCH", "/v1/projects/p1/flags/g", { name: `G by ${who}`, description: "kept" })
    expect(renamed.status, renamed.text).toBe(200)
    const flag = (await admin("GET", "/v1/projects/p1/flags/g")).body as { variations: Array<{ key: string; value: string }> }
    const added = await asPerson(t.url, cookie, "PATCH", "/v1/projects/p1/flags/g", { variations: [...flag.variations, { key: `new-${who}`, value: who }] })
    expect(added.status, added.text).toBe(200)
    const segment = await asPerson(t.url, cookie, "PATCH", "/v1/projects/p1/segments/devs", { name: `Devs by ${who}` })
    expect(segment.status, segment.text).toBe(200)
  })

  it("a file applied by a person over HTTP that rewrites a variation is refused whole; nothing changes", async () => {
    type File = { flags: Array<{ key: string; variations: Array<{ key: string; value: unknown }> }> }
    const file = (await admin("GET", "/v1/projects/p1/export?format=json")).body as File
    const g = file.flags.find((flag) => flag.key === "g")!
    g.variations = g.variations.map((v) => (v.key === "b" ? { ...v, value: "B by file" } : v))
    const before = await state()
    const applied = await asPerson(t.url, people.editor.cookie, "POST", "/v1/projects/p1/apply", file)
    expect({ status: applied.status, body: applied.body }).toEqual({ status: 409, body: REFUSED })
    expect(await state()).toEqual(before)
  })

  it("a server key still writes each of them, and the audit names the key", async () => {
    const key = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.scoped, ...(body === undefined ? {} : { body }) })
    const value = await key("PATCH", "/v1/projects/p1/flags/g", { variations: [{ key: "a", value: "A2" }, VARIATIONS[1], VARIATIONS[2]] })
    expect(value.status, value.text).toBe(200)
    const segment = await key("PATCH", "/v1/projects/p1/segments/beta", { name: "Beta by key" })
    expect(segment.status, segment.text).toBe(200)
    const removed = await key("DELETE", "/v1/projects/p1/flags/g")
    expect(removed.status, removed.text).toBe(204)
    type Entries = { data: Array<{ action: string; actor: { type: string; keyId?: string } }> }
    const flagAudit = (await admin("GET", "/v1/projects/p1/audit?resourceType=flag&resourceKey=g")).body as Entries
    expect(flagAudit.data.slice(0, 2).map((e) => [e.action, e.actor.type])).toEqual([["flag.deleted", "key"], ["flag.updated", "key"]])
    expect(flagAudit.data[0]?.actor.keyId).toBeDefined()
    const segmentAudit = (await admin("GET", "/v1/projects/p1/audit?resourceType=segment&resourceKey=beta")).body as Entries
    expect(segmentAudit.data[0]).toMatchObject({ action: "segment.updated", actor: { type: "key" } })
  })

  it("in a project without a protected environment, an editor deletes flags, rewrites variations and changes segments", async () => {
    const cookie = people.editor.cookie
    const value = await asPerson(t.url, cookie, "PATCH", "/v1/projects/p2/flags/g", { variations: [{ key: "a", value: "A2" }, VARIATIONS[1], VARIATIONS[2]] })
    expect(value.status, value.text).toBe(200)
    const segment = await asPerson(t.url, cookie, "PATCH", "/v1/projects/p2/segments/beta", { conditions: [] })
    expect(segment.status, segment.text).toBe(200)
    const removed = await asPerson(t.url, cookie, "DELETE", "/v1/projects/p2/flags/g")
    expect(removed.status, removed.text).toBe(204)
  })
})
