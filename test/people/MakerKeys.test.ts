/**
 * Keys do not outlive their maker's rights, through a real server on SQLite and PostgreSQL: a
 * project admin signed in mints a key (listed with `createdBy`), that key mints another (same
 * maker); made editor, or disabled, the person loses both, each revocation in the audit log with
 * its reason, and the keys are refused at once. The attack this closes: a disabled admin's key
 * promoting people and putting its maker back.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { MakerReasons } from "../../src/services/auth/MakerKeys.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { asPerson, makePerson } from "../http/people.js"

interface KeyRecord {
  readonly id: string
  readonly createdBy: string | null
  readonly revokedAt: string | null
}

describe.each(["sqlite", "postgres"] as const)("keys and their makers (%s)", (backend) => {
  let t: TestServer
  const keysOfP1 = async () => ((await request(t.url, "GET", "/v1/projects/p1/keys", { key: t.keys.scoped })).body as { data: ReadonlyArray<KeyRecord> }).data
  const reasonsOf = async (keyId: string) => {
    const page = (await request(t.url, "GET", `/v1/projects/p1/audit?resourceType=key&resourceKey=${keyId}`, { key: t.keys.scoped })).body as {
      data: ReadonlyArray<{ action: string; reason?: string }>
    }
    return page.data.filter((entry) => entry.action === "key.revoked").map((entry) => entry.reason)
  }
  /** A project admin of p1 who mints a key, and a key minted by that key. */
  const adminWithKeys = async (label: string) => {
    const person = await t.run(makePerson(`${label}-${backend}@example.com`, { projects: [{ projectId: "p1", role: "admin" }] }))
    const made = await asPerson(t.url, person.cookie, "POST", "/v1/projects/p1/keys", { type: "server", name: `${label}'s key` })
    expect(made.status, made.text).toBe(201)
    const first = made.body as KeyRecord & { key: string }
    const second = (await request(t.url, "POST", "/v1/projects/p1/keys", { key: first.key, body: { type: "server", name: "through a key" } })).body as KeyRecord & { key: string }
    return { person, first, second }
  }
  const works = async (secret: string) => (await request(t.url, "GET", "/v1/projects/p1/flags", { key: secret })).status

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("a key lists its maker: the person, through a key theirs too; the seeded operator's keys none", async () => {
    const { person, first, second } = await adminWithKeys("lister")
    const listed = await keysOfP1()
    expect(listed.find((k) => k.id === first.id)?.createdBy).toBe(person.id)
    expect(listed.find((k) => k.id === second.id)?.createdBy).toBe(person.id)
    expect(listed.filter((k) => k.id !== first.id && k.id !== second.id).every((k) => k.createdBy === null)).toBe(true)
  })

  it("made editor, the person's keys in the project are revoked at once, with the reason in the audit log", async () => {
    const { person, first, second } = await adminWithKeys("demoted")
    expect(await works(second.key)).toBe(200)
    const admin = await t.run(makePerson(`admin-${backend}@example.com`, { admin: true }))
    const put = await asPerson(t.url, admin.cookie, "PUT", `/v1/projects/p1/members/${person.id}`, { role: "editor" })
    expect(put.status, put.text).toBe(200)
    expect(await works(first.key)).toBe(401)
    expect(await works(second.key)).toBe(401)
    expect(await reasonsOf(first.id)).toEqual([MakerReasons.roleChanged])
    expect(await reasonsOf(second.id)).toEqual([MakerReasons.roleChanged])
  })

  it("disabled, the person's keys are revoked and cannot promote anyone or put their maker back", async () => {
    const { person, first, second } = await adminWithKeys("disabled")
    const viewer = await t.run(makePerson(`viewer-${backend}@example.com`, { projects: [{ projectId: "p1", role: "viewer" }] }))
    const disabled = await request(t.url, "PATCH", `/v1/users/${person.id}`, { key: t.keys.global, body: { disabled: true } })
    expect(disabled.status, disabled.text).toBe(200)
    for (const key of [first.key, second.key]) {
      const promote = await request(t.url, "PUT", `/v1/projects/p1/members/${viewer.id}`, { key, body: { role: "admin" } })
      expect(promote.status).toBe(401)
    }
    expect((await keysOfP1()).filter((k) => k.id === first.id || k.id === second.id).every((k) => k.revokedAt !== null)).toBe(true)
    expect(await reasonsOf(first.id)).toEqual([MakerReasons.disabled])
  })
})
