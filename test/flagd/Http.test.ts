/**
 * The flagd import over HTTP (`POST /v1/projects/{p}/import/flagd`) through a real server on SQLite
 * and PostgreSQL: a dry run lists and writes nothing, then the same file imports in one
 * transaction, audited with the caller; a YAML body; a refused flag imports nothing (400 with its
 * path) unless `skipUnsupported`; an existing key is refused; a person's import into a protected
 * environment creates the flags and proposes their targeting as one change request; a viewer, a
 * client key and a key bound to one environment are refused; an unknown environment is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as YAML from "yaml"
import { Audit } from "../../src/services/audit/Audit.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { asPerson, makePerson, type Person } from "../http/people.js"

interface Report {
  readonly written: boolean
  readonly flags: ReadonlyArray<{ readonly key: string; readonly result: string; readonly rules?: number; readonly path?: string; readonly reason?: string }>
  readonly changeRequests: ReadonlyArray<{ readonly id: string; readonly flagKeys: ReadonlyArray<string> }>
}

const fileOf = (prefix: string, options: { readonly unsupported?: boolean } = {}) => ({
  flags: {
    [`${prefix}-checkout`]: { state: "ENABLED", variants: { on: true, off: false }, defaultVariant: "off", targeting: { if: [{ ends_with: [{ var: "email" }, "@example.com"] }, "on", "off"] } },
    [`${prefix}-color`]: { state: "ENABLED", variants: { red: "#f00", blue: "#00f" }, defaultVariant: "red" },
    ...(options.unsupported === true
      ? { [`${prefix}-odd`]: { state: "ENABLED", variants: { a: 1, b: 2 }, defaultVariant: "a", targeting: { if: [{ "%": [{ var: "n" }, 2] }, "b", "a"] } } }
      : {})
  }
})

const PATH = "/v1/projects/p1/import/flagd"

describe.each(["sqlite", "postgres"] as const)("the flagd import over HTTP (%s)", (backend) => {
  let t: TestServer
  let editor: Person
  let viewer: Person
  const withKey = (key: string, query: string, body: unknown, headers: Record<string, string> = {}) =>
    request(t.url, "POST", `${PATH}?${query}`, { key, body, headers })
  const flagKeys = () => t.run(Effect.map(Effect.flatMap(Flags, (flags) => flags.list("p1")), (flags) => flags.map((flag) => flag.key)))

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    editor = await t.run(makePerson(`fd-editor-${backend}@example.com`, { projects: [{ projectId: "p1", role: "editor" }] }))
    viewer = await t.run(makePerson(`fd-viewer-${backend}@example.com`, { projects: [{ projectId: "p1", role: "viewer" }] }))
  })
  afterAll(() => t?.close())

  it("a dry run lists and writes nothing; the same file then imports, audited with the key", async () => {
    const before = await flagKeys()
    const dry = await withKey(t.keys.scoped, "environment=production&dryRun=true", fileOf("dry"))
    expect(dry.status, dry.text).toBe(200)
    expect(dry.body).toEqual({
      projectId: "p1",
      environment: "production",
      written: false,
      flags: [{ key: "dry-checkout", result: "would import", rules: 1 }, { key: "dry-color", result: "would import", rules: 0 }],
      changeRequests: []
    })
    expect(await flagKeys()).toEqual(before)

    const imported = await withKey(t.keys.scoped, "environment=production", fileOf("dry"))
    expect(imported.status, imported.text).toBe(200)
    expect((imported.body as Report).written).toBe(true)
    expect((imported.body as Report).flags.map((f) => f.result)).toEqual(["imported", "imported"])
    const flag = await t.run(Effect.flatMap(Flags, (flags) => flags.get("p1", "dry-checkout")))
    expect(flag.configs.find((c) => c.environmentKey === "production")).toMatchObject({ enabled: true, defaultVariationKey: "off" })
    expect(flag.configs.find((c) => c.environmentKey === "development")?.enabled).toBe(false)
    const audit = await t.run(Effect.flatMap(Audit, (a) => a.list("p1", { resourceType: "flag", resourceKey: "dry-checkout" })))
    expect(audit.data.map((entry) => [entry.action, entry.actor.type])).toEqual([["targeting.updated", "key"], ["flag.created", "key"]])

    // Again: every key exists now, so every flag is refused and nothing is written.
    const again = await withKey(t.keys.scoped, "environment=production", fileOf("dry"))
    expect(again.status).toBe(400)
    expect(again.body).toMatchObject({ error: { code: "invalid_request", details: [{ path: "flags.dry-checkout", message: expect.stringContaining("already has a flag") }, { path: "flags.dry-color" }] } })
  })

  it("a YAML body imports; a refused flag imports nothing unless skipUnsupported leaves it out", async () => {
    const refused = await withKey(t.keys.global, "environment=development", fileOf("odd", { unsupported: true }))
    expect(refused.status, refused.text).toBe(400)
    expect((refused.body as { error: { message: string; details: ReadonlyArray<{ path: string }> } }).error).toMatchObject({
      message: "1 flag(s) of the file cannot be imported; nothing was imported (send skipUnsupported=true to import the others)",
      details: [{ path: expect.stringMatching(/^flags\.odd-odd/) }]
    })
    expect((await flagKeys()).filter((key) => key.startsWith("odd-"))).toEqual([])

    const yaml = await withKey(t.keys.global, "environment=development&skipUnsupported=true", YAML.stringify(fileOf("odd", { unsupported: true })), { "content-type": "application/yaml" })
    expect(yaml.status, yaml.text).toBe(200)
    expect((yaml.body as Report).flags.map((f) => [f.key, f.result])).toEqual([["odd-checkout", "imported"], ["odd-color", "imported"], ["odd-odd", "skipped"]])
    expect((await flagKeys()).filter((key) => key.startsWith("odd-")).sort()).toEqual(["odd-checkout", "odd-color"])
    const notYaml = await withKey(t.keys.global, "environment=development", "flags: [\n", { "content-type": "application/yaml" })
    expect(notYaml.status).toBe(400)
  })

  it("a person's import into a protected environment creates the flags and proposes their targeting", async () => {
    await t.run(Effect.flatMap(Environments, (envs) => envs.update("p1", "production", { protected: true })))
    try {
      const dry = await asPerson(t.url, editor.cookie, "POST", `${PATH}?environment=production&dryRun=true`, fileOf("cr"))
      expect(dry.status, dry.text).toBe(200)
      expect((dry.body as Report).flags.map((f) => f.result)).toEqual(["would propose", "would propose"])
      const proposed = await asPerson(t.url, editor.cookie, "POST", `${PATH}?environment=production`, fileOf("cr"))
      expect(proposed.status, proposed.text).toBe(200)
      const report = proposed.body as Report
      expect(report.flags.map((f) => f.result)).toEqual(["proposed", "proposed"])
      expect(report.changeRequests).toEqual([{ id: expect.any(String), flagKeys: ["cr-checkout", "cr-color"] }])
      const flag = await t.run(Effect.flatMap(Flags, (flags) => flags.get("p1", "cr-checkout")))
      expect(flag.configs.find((c) => c.environmentKey === "production")?.enabled).toBe(false)
      const opened = await asPerson(t.url, editor.cookie, "GET", `/v1/projects/p1/change-requests/${report.changeRequests[0]!.id}`)
      expect(opened.body).toMatchObject({
        status: "open",
        environment: "production",
        author: { type: "user", email: `fd-editor-${backend}@example.com` },
        changes: [{ flagKey: "cr-checkout", baseVersion: 1, after: { enabled: true, rules: [{ conditions: [expect.anything()] }] } }, { flagKey: "cr-color" }]
      })
      // A server key writes a protected environment directly.
      const direct = await withKey(t.keys.scoped, "environment=production", fileOf("direct"))
      expect((direct.body as Report).flags.map((f) => f.result)).toEqual(["imported", "imported"])
    } finally {
      await t.run(Effect.flatMap(Environments, (envs) => envs.update("p1", "production", { protected: false })))
    }
  })

  it("refuses whoever may not create flags in every environment; an unknown environment is 404", async () => {
    const before = await flagKeys()
    expect((await asPerson(t.url, viewer.cookie, "POST", `${PATH}?environment=production`, fileOf("no"))).status).toBe(403)
    expect((await withKey(t.keys.client, "environment=production", fileOf("no"))).status).toBe(403)
    expect((await withKey(t.keys.boundServerOther, "environment=production", fileOf("no"))).status).toBe(403)
    expect((await withKey(t.keys.otherScoped, "environment=production", fileOf("no"))).status).toBe(403)
    const unknown = await withKey(t.keys.scoped, "environment=prod", fileOf("no"))
    expect(unknown.status).toBe(404)
    expect((unknown.body as { error: { message: string } }).error.message).toMatch(/^Environment 'prod' not found/)
    const missing = await withKey(t.keys.scoped, "dryRun=true", fileOf("no"))
    expect(missing.status).toBe(400)
    const notFlagd = await withKey(t.keys.scoped, "environment=production", { flags: "none" })
    expect(notFlagd.status).toBe(400)
    expect((notFlagd.body as { error: { message: string } }).error.message).toBe("Not a flagd flag definition file")
    expect(await flagKeys()).toEqual(before)
  })
})
