/**
 * `flagport change-requests list|show|approve|reject|apply` through the real binary, beside a
 * running server on the same database (a SQLite file, a PostgreSQL database): people open and
 * approve over HTTP while the command line acts as the operator (`cli`). The rules are the API's:
 * `cli` never approves or rejects a request it opened, approves once, applies only what it
 * approved or opened once it counts enough approvals; an approval or apply racing the server's
 * lands once; what it writes the server sees at once.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { ChangeRequests } from "../../src/services/changes/ChangeRequests.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { asPerson, makePerson, type Person } from "../http/people.js"
import { backends } from "./Databases.js"
import { keyLines, runCli } from "./Process.js"

const TIMEOUT = 180_000
const CRS = "/v1/projects/p1/change-requests"
const on = { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }

interface Shown {
  readonly id: string
  readonly status: string
  readonly approvals: ReadonlyArray<{ readonly by: { readonly type: string }; readonly counts: boolean }>
}

describe.each(backends)("flagport change-requests beside a server on $name", (backend) => {
  let server: TestServer
  let env: { DATABASE_URL: string }
  let edna: Person
  let ada: Person
  let flagCount = 0

  beforeAll(async () => {
    env = { DATABASE_URL: await backend.fresh() }
    server = await startServer(StorageLayer.fromDatabaseUrl(env.DATABASE_URL))
    edna = await server.run(makePerson("edna@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
    ada = await server.run(makePerson("ada@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
    await server.run(Effect.gen(function* () {
      const environments = yield* Environments
      yield* environments.update("p1", "production", { protected: true })
      yield* environments.update("p1", "development", { protected: true, requiredApprovals: 2 })
    }))
  }, TIMEOUT)
  afterAll(() => server?.close())

  const cli = (...args: ReadonlyArray<string>) => runCli(["change-requests", ...args, "--project", "p1"], env)

  /** A new flag, and Edna's request turning it on in `environment`. */
  const proposed = async (environment = "production") => {
    const flagKey = `checkout-${++flagCount}`
    await server.run(Effect.flatMap(Flags, (flags) =>
      flags.create("p1", { key: flagKey, name: flagKey, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })))
    const opened = await asPerson(server.url, edna.cookie, "POST", CRS, { title: `${flagKey} on`, environment, changes: [{ flagKey, targeting: on }] })
    expect(opened.status, opened.text).toBe(201)
    return { flagKey, id: (opened.body as Shown).id }
  }

  const shown = async (id: string) => (await asPerson(server.url, ada.cookie, "GET", `${CRS}/${id}`)).body as Shown

  const appliedEntries = (flagKey: string) =>
    server.run(Effect.map(Effect.flatMap(Audit, (audit) => audit.list("p1", { resourceType: "flag", resourceKey: flagKey })), (page) =>
      page.data.filter((entry) => entry.action === "targeting.updated")))

  it("lists, shows the diff, approves and applies as cli; the server sees each step at once", { timeout: TIMEOUT }, async () => {
    const { flagKey, id } = await proposed()

    const listed = await cli("list", "--status", "open")
    expect(listed.code, listed.stderr).toBe(0)
    const [header, row] = listed.stdout.trim().split("\n").map((line) => line.split(/\s{2,}/))
    expect(header).toEqual(["ID", "STATUS", "ENVIRONMENT", "APPROVALS", "FLAGS", "AUTHOR", "CREATED", "TITLE"])
    expect(row).toEqual([id, "open", "production", "0/1", flagKey, "edna@example.com", expect.any(String), `${flagKey} on`])
    expect((await cli("list", "--status", "applied")).stdout.trim().split("\n")).toHaveLength(1)
    const json = JSON.parse((await cli("list", "--json")).stdout) as { data: ReadonlyArray<Shown> }
    expect(json.data.find((r) => r.id === id)).toEqual(await shown(id))

    const show = await cli("show", id)
    expect(show.code, show.stderr).toBe(0)
    expect(keyLines(show.stdout)).toMatchObject({ CHANGE_REQUEST: id, STATUS: "open", ENVIRONMENT: "production", AUTHOR: "edna@example.com", APPROVALS: "0/1", APPROVED_BY: "-", FLAGS: flagKey })
    expect(show.stdout).toContain(`${flagKey} (based on version 1)\n  - enabled: false\n  + enabled: true\n`)
    expect(show.stdout).not.toContain("defaultVariationKey")

    // Not approved yet: the apply is refused, nothing written.
    const early = await cli("apply", id)
    expect(early.code).toBe(1)
    expect(early.stderr.trim()).toBe("error: This change request needs 1 approval before it is applied; it has 0")

    const approved = await cli("approve", id, "--comment", "Checked")
    expect(approved.code, approved.stderr).toBe(0)
    expect(keyLines(approved.stdout)).toMatchObject({ STATUS: "approved", APPROVALS: "1/1", APPROVED_BY: "cli" })
    expect(await shown(id)).toMatchObject({ status: "approved", approvals: [{ by: { type: "cli" }, comment: "Checked", counts: true }] })
    const twice = await cli("approve", id)
    expect(twice.code).toBe(1)
    expect(twice.stderr.trim()).toBe("error: You have already approved this change request")

    const applied = await cli("apply", id)
    expect(applied.code, applied.stderr).toBe(0)
    expect(keyLines(applied.stdout)).toMatchObject({ STATUS: "applied", APPLIED: expect.stringMatching(/ by cli$/) })
    const flag = await request(server.url, "GET", `/v1/projects/p1/flags/${flagKey}`, { key: server.keys.scoped })
    expect((flag.body as { configs: ReadonlyArray<{ environmentKey: string; enabled: boolean }> }).configs.find((c) => c.environmentKey === "production")?.enabled).toBe(true)
    expect((await appliedEntries(flagKey)).map((entry) => [entry.actor, entry.changeRequestId])).toEqual([[{ type: "cli" }, id]])
    const again = await cli("apply", id)
    expect(again.code).toBe(1)
    expect(again.stderr.trim()).toBe("error: This change request is applied; it can no longer change")

    const missing = await cli("show", "no-such-request")
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^error: Change request 'no-such-request' not found/)
  })

  it("cli neither approves nor rejects its own request; a rejection needs its reason and closes the request", { timeout: TIMEOUT }, async () => {
    await server.run(Effect.flatMap(Flags, (flags) =>
      flags.create("p1", { key: "by-cli", name: "by-cli", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })))
    // Opened by an Effect host as the operator: recorded as cli, as the command line is.
    const own = await server.run(Effect.flatMap(ChangeRequests, (crs) =>
      crs.open("p1", { title: "By the operator", environment: "production", changes: [{ flagKey: "by-cli", targeting: on }] })))
    const selfApproval = await cli("approve", own.id)
    expect(selfApproval.code).toBe(1)
    expect(selfApproval.stderr.trim()).toBe("error: You cannot approve your own change request")
    const selfRejection = await cli("reject", own.id, "--comment", "no")
    expect(selfRejection.code).toBe(1)
    expect(selfRejection.stderr.trim()).toBe("error: You cannot reject your own change request; cancel it instead")
    // Approved by someone else, its author (cli) applies it.
    expect((await asPerson(server.url, ada.cookie, "POST", `${CRS}/${own.id}/approve`, {})).status).toBe(200)
    const applied = await cli("apply", own.id)
    expect(applied.code, applied.stderr).toBe(0)

    const { id } = await proposed()
    expect((await cli("reject", id)).code).toBe(2)
    const blank = await cli("reject", id, "--comment", "  ")
    expect(blank.code).toBe(1)
    expect(blank.stderr).toContain("must say why it is rejected (not blank)")
    expect((await shown(id)).status).toBe("open")
    const rejected = await cli("reject", id, "--comment", "Not before the sale")
    expect(rejected.code, rejected.stderr).toBe(0)
    expect(keyLines(rejected.stdout)).toMatchObject({ STATUS: "rejected", REJECTED: expect.stringMatching(/ by cli: Not before the sale$/) })
    const late = await asPerson(server.url, ada.cookie, "POST", `${CRS}/${id}/approve`, {})
    expect(late.status).toBe(409)
  })

  it("an approval and an apply racing a person's over HTTP: both approvals count, the request applies once", { timeout: TIMEOUT }, async () => {
    const { flagKey, id } = await proposed("development")
    const [byCli, byAda] = await Promise.all([
      cli("approve", id),
      asPerson(server.url, ada.cookie, "POST", `${CRS}/${id}/approve`, {})
    ])
    expect(byCli.code, byCli.stderr).toBe(0)
    expect(byAda.status, byAda.text).toBe(200)
    const both = await shown(id)
    expect(both.status).toBe("approved")
    expect(both.approvals.map((a) => a.by.type).sort()).toEqual(["cli", "user"])

    const [cliApply, adaApply] = await Promise.all([
      cli("apply", id),
      asPerson(server.url, ada.cookie, "POST", `${CRS}/${id}/apply`)
    ])
    const winners = [cliApply.code === 0, adaApply.status === 200].filter(Boolean)
    expect(winners, `cli: ${cliApply.code} ${cliApply.stderr}; http: ${adaApply.status} ${adaApply.text}`).toHaveLength(1)
    const loser = cliApply.code === 0 ? adaApply.text : cliApply.stderr
    expect(loser).toMatch(/This change request is applied|changed meanwhile/)
    expect(await appliedEntries(flagKey)).toHaveLength(1)
    const flag = await server.run(Effect.flatMap(Flags, (flags) => flags.get("p1", flagKey)))
    expect(flag.version).toBe(2)
  })
})
