/**
 * `GET /v1/stream` across processes: a `flagport serve` process on the same PostgreSQL as this
 * test's server streams a change made through this one (LISTEN/NOTIFY), accepts stream tokens
 * this one issued (the signing secret is in the database), and ends the stream of a key revoked
 * here. And SIGTERM with 200 open streams: the process ends them and exits 0 promptly.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { principalOf } from "../../src/domain/auth/Policy.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { StreamTokens } from "../../src/services/auth/StreamTokens.js"
import { keyLines, type ServerProcess, startServer as startProcess, freshSqliteUrl } from "../cli/Process.js"
import { freshPostgresUrl } from "../fixtures/databases.js"
import { perTest } from "../fixtures/perTest.js"
import { request, startServer } from "./fixtures.js"
import { etagOf, openStream, type OpenStream, sleep } from "./sse.js"

const TIMEOUT = 180_000

const { closers, scoped } = perTest()

const serveProcess = async (args: ReadonlyArray<string>, env: Record<string, string>): Promise<ServerProcess> => {
  const child = await startProcess(args, env)
  closers.push(() => {
    if (child.child.exitCode === null) child.child.kill("SIGKILL")
  })
  return child
}

describe("streams across processes on one PostgreSQL", () => {
  it("a second server process streams a change made through the first, honours its tokens and its revocations", { timeout: TIMEOUT }, async () => {
    const databaseUrl = await scoped(freshPostgresUrl)
    const first = await startServer(StorageLayer.fromDatabaseUrl(databaseUrl))
    closers.push(first.close)
    const second = await serveProcess(["serve"], { DATABASE_URL: databaseUrl })
    const auth = { authorization: `Bearer ${first.keys.client}` }

    const s: OpenStream = await openStream(second.baseUrl, "/v1/stream?environment=development", auth)
    closers.push(s.close)
    expect(s.status).toBe(200)
    const configEtag = async (base: string) =>
      (await request(base, "GET", "/v1/config?environment=development", { key: first.keys.client })).headers.get("etag")
    expect(etagOf(await s.event(0))).toBe(await configEtag(second.baseUrl))

    const created = await request(first.url, "POST", "/v1/projects/p1/flags", {
      key: first.keys.scoped,
      body: { key: "across", name: "Across", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
    })
    expect(created.status).toBe(201)
    const event = etagOf(await s.event(1, 10_000))
    expect(event).toBe(await configEtag(second.baseUrl))
    expect(event).toBe(await configEtag(first.url))

    // A token issued by the first process opens a stream on the second (one secret per database).
    const key = await first.run(Effect.flatMap(ApiKeys, (keys) => keys.create({ type: "client", projectId: "p1" })))
    const token = await first.run(
      Effect.flatMap(StreamTokens, (tokens) => tokens.issue(principalOf(key.apiKey), { environment: "development" }))
    )
    const byToken = await openStream(second.baseUrl, `/v1/stream?token=${encodeURIComponent(token.token)}`)
    closers.push(byToken.close)
    expect(byToken.status).toBe(200)
    expect(etagOf(await byToken.event(0))).toBe(event)

    // Revoked through the first process: the second ends the key's stream within 5 s.
    await first.run(Effect.flatMap(ApiKeys, (keys) => keys.revoke(key.apiKey.id)))
    expect(await Promise.race([byToken.ended.then(() => "ended"), sleep(5_000).then(() => "still open")])).toBe("ended")
    const refused = await openStream(second.baseUrl, `/v1/stream?token=${encodeURIComponent(token.token)}`)
    expect(refused.status).toBe(401)
  })
})

describe("shutdown", () => {
  it("SIGTERM with 200 open streams: every stream ends and the process exits 0 promptly", { timeout: TIMEOUT }, async () => {
    const server = await serveProcess(["serve", "--init"], { DATABASE_URL: freshSqliteUrl() })
    const { CLIENT_KEY } = keyLines(server.output().stdout)
    const streams: Array<OpenStream> = []
    for (let batch = 0; batch < 10; batch++) {
      streams.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, () => openStream(server.baseUrl, "/v1/stream?environment=production", { authorization: `Bearer ${CLIENT_KEY}` }))
        ))
      )
    }
    closers.push(() => streams.forEach((s) => s.close()))
    expect(streams.map((s) => s.status)).toEqual(Array(200).fill(200))
    await Promise.all(streams.map((s) => s.event(0)))
    const started = performance.now()
    server.child.kill("SIGTERM")
    expect(await server.exited).toBe(0)
    expect(performance.now() - started).toBeLessThan(5_000) // the drain would wait 10 s for open requests
    await Promise.all(streams.map((s) => s.ended))
  })
})
