/**
 * Flags as code through a real server on SQLite and PostgreSQL: export in each format, apply of a
 * YAML body and of JSON (dry run first: nothing written), every problem of a bad file in the 400
 * with its path, and what each caller may apply: a server key everything of its project, an
 * editor flags and targeting but no environment (403), a viewer nothing, a person's targeting in a
 * protected environment a change request, a key bound to production not development's targeting,
 * a new project only a global administrator. The JSON Schema is served for editors.
 */
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as YAML from "yaml"
import { Messages } from "../../src/domain/auth/Policy.js"
import { PeopleMessages } from "../../src/domain/auth/PeopleMessages.js"
import { FlagsAsCode } from "../../src/services/ascode/FlagsAsCode.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { asPerson, makePerson, type Person } from "../http/people.js"
import { richFile } from "./RichProject.js"

interface Answer {
  readonly applied: boolean
  readonly dryRun: boolean
  readonly changes: ReadonlyArray<{ readonly resource: string; readonly action: string; readonly key: string; readonly environment?: string; readonly changeRequest?: boolean }>
  readonly changeRequests: ReadonlyArray<{ readonly id: string; readonly action: string; readonly environment: string; readonly flagKeys: ReadonlyArray<string> }>
  readonly pendingChangeRequests: ReadonlyArray<{ readonly id: string; readonly environment: string; readonly flagKeys: ReadonlyArray<string> }>
}

interface RequestRow {
  readonly id: string
  readonly author: unknown
  readonly status: string
  readonly changes: ReadonlyArray<{ readonly flagKey: string; readonly after: { readonly enabled: boolean; readonly defaultVariationKey: string } }>
}

/** A p1 file: one flag on in development (and, when asked, off in production), optionally an environment renamed. */
const p1File = (flagKey: string, options: { readonly production?: boolean; readonly renameStaging?: boolean } = {}) => ({
  project: { id: "p1" },
  ...(options.renameStaging === true ? { environments: [{ key: "development", name: "Dev (renamed)" }] } : {}),
  flags: [{
    key: flagKey,
    type: "boolean",
    variations: [{ key: "on", value: true }, { key: "off", value: false }],
    environments: [
      { key: "development", enabled: true, defaultVariationKey: "on", offVariationKey: "off" },
      ...(options.production === true ? [{ key: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off" }] : [])
    ]
  }]
})

describe.each(["sqlite", "postgres"] as const)("flags as code over HTTP (%s)", (backend) => {
  let t: TestServer
  let editor: Person
  let viewer: Person
  const key = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(t.url, method, path, { key: t.keys.global, headers, ...(body === undefined ? {} : { body }) })

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    editor = await t.run(makePerson(`ac-editor-${backend}@example.com`, { projects: [{ projectId: "p1", role: "editor" }] }))
    viewer = await t.run(makePerson(`ac-viewer-${backend}@example.com`, { projects: [{ projectId: "p1", role: "viewer" }] }))
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("a YAML body plans (dry run: nothing written), then applies; export gives the file back in each format", async () => {
    const yaml = YAML.stringify(richFile())
    const dry = await key("POST", "/v1/projects/rich/apply?dryRun=true", yaml, { "content-type": "application/yaml" })
    expect(dry.status, dry.text).toBe(200)
    expect(dry.body).toMatchObject({ dryRun: true, applied: false, projectId: "rich" })
    expect((await key("GET", "/v1/projects/rich/export")).status).toBe(404)
    const applied = await key("POST", "/v1/projects/rich/apply", yaml, { "content-type": "application/yaml; charset=utf-8" })
    expect(applied.status, applied.text).toBe(200)
    expect(applied.body).toMatchObject({ applied: true, changes: (dry.body as Answer).changes })
    const exported = await key("GET", "/v1/projects/rich/export")
    expect(exported.headers.get("content-type")).toContain("application/yaml")
    const served = await t.run(Effect.flatMap(FlagsAsCode, (code) => code.exportFile("rich")))
    expect(YAML.parse(exported.text)).toEqual(served)
    const json = await key("GET", "/v1/projects/rich/export?format=json")
    expect(json.headers.get("content-type")).toContain("application/json")
    expect(json.body).toEqual(served)
    const manifest = await key("GET", "/v1/projects/rich/export?format=openfeature-manifest&environment=production")
    expect(manifest.body).toMatchObject({ flags: { theme: { flagType: "object", defaultValue: { dark: true } } } })
    expect((await key("GET", "/v1/projects/rich/export?format=json&environment=production")).status).toBe(400)
    expect((await key("GET", "/v1/projects/rich/export?format=toml")).status).toBe(400)
    // Applying the export again: nothing to do (JSON this time).
    const again = await key("POST", "/v1/projects/rich/apply", json.body)
    expect(again.body).toMatchObject({ applied: false, changes: [] })
    // Another media type is refused, as on every route.
    expect((await key("POST", "/v1/projects/rich/apply", yaml, { "content-type": "text/plain" })).status).toBe(415)
  })

  it("a bad file is refused whole: every problem with its path in the file, nothing applied", async () => {
    const bad = structuredClone(richFile("bad")) as unknown as { flags: Array<{ variations: Array<{ value: unknown }>; environments: Array<{ defaultVariationKey: string }> }>; segments: Array<{ conditions: Array<{ operator: string }> }> }
    bad.flags[0]!.environments[1]!.defaultVariationKey = "maybe"
    bad.flags[2]!.variations[0]!.value = "ten"
    bad.segments[0]!.conditions[0]!.operator = "like"
    const refused = await key("POST", "/v1/projects/bad/apply", bad)
    expect(refused.status).toBe(400)
    expect((refused.body as { error: { details: ReadonlyArray<{ path: string }> } }).error.details.map((d) => d.path)).toEqual([
      "flags[0].environments[1].defaultVariationKey",
      "flags[2].variations[0].value",
      "segments[0].conditions[0].operator"
    ])
    expect((await key("GET", "/v1/projects/bad/export")).status).toBe(404)
    const notYaml = await key("POST", "/v1/projects/bad/apply", "flags: [\n", { "content-type": "application/yaml" })
    expect(notYaml.status).toBe(400)
    expect(notYaml.text).toContain("line ")
  })

  it("what each caller may apply: the plan's changes decide", async () => {
    // An editor: flags and targeting yes, an environment no; a viewer: nothing.
    const byEditor = await asPerson(t.url, editor.cookie, "POST", "/v1/projects/p1/apply", p1File("by-editor"))
    expect(byEditor.status, byEditor.text).toBe(200)
    const envByEditor = await asPerson(t.url, editor.cookie, "POST", "/v1/projects/p1/apply", p1File("by-editor", { renameStaging: true }))
    expect(envByEditor.status).toBe(403)
    expect(envByEditor.text).toContain(PeopleMessages.roleForbids)
    expect((await asPerson(t.url, viewer.cookie, "POST", "/v1/projects/p1/apply?dryRun=true", p1File("by-viewer"))).status).toBe(403)
    // A project's own server key may change an environment; a key bound to production may not write development.
    expect((await request(t.url, "POST", "/v1/projects/p1/apply", { key: t.keys.scoped, body: p1File("by-key", { renameStaging: true }) })).status).toBe(200)
    const bound = await request(t.url, "POST", "/v1/projects/p1/apply", { key: t.keys.boundServerOther, body: p1File("by-bound") })
    expect(bound.status).toBe(403)
    expect(bound.text).toContain(Messages.environmentMismatch)
    // A new project: a global administrator's (a project key cannot even name another project).
    expect((await request(t.url, "POST", "/v1/projects/newer/apply", { key: t.keys.scoped, body: { project: { id: "newer" } } })).status).toBe(403)
  })

  it("in a protected environment a person's targeting becomes a change request; a server key writes it", async () => {
    expect((await key("PATCH", "/v1/projects/p1/environments/production", { protected: true })).status).toBe(200)
    const byEditor = await asPerson(t.url, editor.cookie, "POST", "/v1/projects/p1/apply", p1File("guarded", { production: true }))
    expect(byEditor.status, byEditor.text).toBe(200)
    const answer = byEditor.body as Answer
    expect(answer.changes.find((c) => c.resource === "targeting" && c.environment === "production")).toMatchObject({ changeRequest: true })
    expect(answer.changes.find((c) => c.resource === "targeting" && c.environment === "development")?.changeRequest).toBeUndefined()
    expect(answer.changeRequests).toEqual([{ id: expect.any(String), action: "opened", environment: "production", flagKeys: ["guarded"] }])
    const flag = (await key("GET", "/v1/projects/p1/flags/guarded")).body as { configs: ReadonlyArray<{ environmentKey: string; enabled: boolean }> }
    expect(flag.configs.find((c) => c.environmentKey === "production")?.enabled).toBe(false)
    expect(flag.configs.find((c) => c.environmentKey === "development")?.enabled).toBe(true)
    const request_ = await key("GET", `/v1/projects/p1/change-requests/${answer.changeRequests[0]!.id}`)
    expect(request_.body).toMatchObject({ status: "open", environment: "production", changes: [{ flagKey: "guarded" }] })
    // The same file by a server key: written directly.
    const byKey = await key("POST", "/v1/projects/p1/apply", p1File("guarded", { production: true }))
    expect(byKey.body).toMatchObject({ applied: true, changeRequests: [] })
    const after = (await key("GET", "/v1/projects/p1/flags/guarded")).body as { configs: ReadonlyArray<{ environmentKey: string; enabled: boolean }> }
    expect(after.configs.find((c) => c.environmentKey === "production")?.enabled).toBe(true)
    expect((await key("PATCH", "/v1/projects/p1/environments/production", { protected: false })).status).toBe(200)
  })

  it("a person applying the same file again opens no second change request; a different file updates theirs", async () => {
    expect((await key("PATCH", "/v1/projects/p1/environments/production", { protected: true })).status).toBe(200)
    const apply = async (file: unknown) => {
      const answer = await asPerson(t.url, editor.cookie, "POST", "/v1/projects/p1/apply", file)
      expect(answer.status, answer.text).toBe(200)
      return answer.body as Answer
    }
    const openOf = async () =>
      ((await key("GET", "/v1/projects/p1/change-requests?status=open")).body as { data: ReadonlyArray<RequestRow> }).data
        .filter((r) => r.changes.some((c) => c.flagKey === "twice"))
    const first = await apply(p1File("twice", { production: true }))
    expect(first.changeRequests).toEqual([{ id: expect.any(String), action: "opened", environment: "production", flagKeys: ["twice"] }])
    const id = first.changeRequests[0]!.id

    // The same file again: nothing to change, nothing proposed, the pending request named.
    const again = await apply(p1File("twice", { production: true }))
    expect(again).toMatchObject({ applied: false, changes: [], changeRequests: [], pendingChangeRequests: [{ id, environment: "production", flagKeys: ["twice"] }] })
    expect((await openOf()).map((r) => r.id)).toEqual([id])

    // Different targeting for production: the same request, updated.
    const changed = p1File("twice", { production: true })
    const production = { key: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off" }
    const different = await apply({ ...changed, flags: [{ ...changed.flags[0]!, environments: [changed.flags[0]!.environments[0]!, production] }] })
    expect(different.changes).toMatchObject([{ resource: "targeting", environment: "production", changeRequest: true, changeRequestId: id }])
    expect(different.changeRequests).toEqual([{ id, action: "updated", environment: "production", flagKeys: ["twice"] }])
    const open = await openOf()
    expect(open.map((r) => r.id)).toEqual([id])
    expect(open[0]!.changes).toMatchObject([{ flagKey: "twice", after: { enabled: true, defaultVariationKey: "on" } }])
    expect((await key("PATCH", "/v1/projects/p1/environments/production", { protected: false })).status).toBe(200)
  })

  it("?plan=<fingerprint> applies the plan shown, or 409 and nothing when the project moved since", async () => {
    const file = p1File("fingerprinted")
    const shown = (await key("POST", "/v1/projects/p1/apply?dryRun=true", file)).body as Answer & { fingerprint: string }
    expect(shown.fingerprint).toMatch(/^[0-9a-f]{16}$/)
    expect(((await key("POST", "/v1/projects/p1/apply?dryRun=true", file)).body as { fingerprint: string }).fingerprint).toBe(shown.fingerprint)
    // Someone makes the flag in between: the plan shown is no longer the plan.
    const variations = [{ key: "on", value: true }, { key: "off", value: false }]
    expect((await key("POST", "/v1/projects/p1/flags", { key: "fingerprinted", name: "Made elsewhere", type: "boolean", variations })).status).toBe(201)
    const refused = await key("POST", `/v1/projects/p1/apply?plan=${shown.fingerprint}`, file)
    expect(refused.status).toBe(409)
    expect(refused.text).toContain(`changed since plan ${shown.fingerprint} was shown`)
    expect(((await key("GET", "/v1/projects/p1/flags/fingerprinted")).body as { name: string }).name).toBe("Made elsewhere")
    // Planned again, that plan applies.
    const again = (await key("POST", "/v1/projects/p1/apply?dryRun=true", file)).body as { fingerprint: string }
    expect(again.fingerprint).not.toBe(shown.fingerprint)
    expect((await key("POST", `/v1/projects/p1/apply?plan=${again.fingerprint}`, file)).body).toMatchObject({ applied: true, fingerprint: again.fingerprint })
    expect(((await key("GET", "/v1/projects/p1/flags/fingerprinted")).body as { name: string }).name).toBe("fingerprinted")
    expect((await key("POST", "/v1/projects/p1/apply?plan=not-a-plan", file)).status).toBe(400)
  })

  it("serves the file's JSON Schema without authentication, as committed", async () => {
    const schema = await request(t.url, "GET", "/schemas/project-file.json")
    expect(schema.status).toBe(200)
    expect(schema.body).toEqual(JSON.parse(readFileSync(new URL("../../docs/project-file.schema.json", import.meta.url), "utf8")))
  })
})
