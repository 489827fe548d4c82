/**
 * `GET /v1/projects/{p}/events` on PostgreSQL, where two writes to one project need not commit in
 * the order they appended their audit entries: a write held open in a transaction (a host running
 * a use case inside its own) long after a later write committed and was streamed is still
 * delivered when it commits, however late. The stream reads while the transaction is open, so a
 * read that moved past the open write's place would lose it for good.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Deferred from "effect/Deferred"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { Transactor } from "../../src/ports/Transactor.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { freshPostgresUrl } from "../fixtures/databases.js"
import { perTest } from "../fixtures/perTest.js"
import { request, startServer } from "./fixtures.js"
import { openStream, type SseEvent, sleep } from "./sse.js"

/** Longer than any window a reader could wait for late commits by their time (it was 10 s). */
const HELD_MS = 12_000

const { closers, scoped } = perTest()

const kindOf = (event: SseEvent) => (JSON.parse(event.data) as { kind: string }).kind

describe("management events on PostgreSQL", () => {
  it("a write committing long after a later write was streamed is still delivered", { timeout: 90_000 }, async () => {
    const server = await startServer(StorageLayer.fromDatabaseUrl(await scoped(freshPostgresUrl)))
    closers.push(server.close)
    const stream = await openStream(server.url, "/v1/projects/p1/events", { authorization: `Bearer ${server.keys.scoped}` })
    closers.push(stream.close)
    expect(stream.status).toBe(200)
    await stream.event(0)

    // A key created inside a transaction that stays open: its audit entry is appended, not committed.
    const release = await server.run(Deferred.make<void>())
    const appended = await server.run(Deferred.make<void>())
    const held = server.run(
      Effect.flatMap(Transactor, (tx) =>
        tx.withTransaction(
          Effect.flatMap(ApiKeys, (keys) => keys.create({ type: "server", projectId: "p1", name: "held open" })).pipe(
            Effect.zipLeft(Deferred.succeed(appended, undefined)),
            Effect.zipLeft(Deferred.await(release))
          )
        ))
    )
    await server.run(Deferred.await(appended))

    // A flag created meanwhile commits first (a key's write does not lock the project's row).
    const created = await request(server.url, "POST", "/v1/projects/p1/flags", {
      key: server.keys.scoped,
      body: { key: "committed-first", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
    })
    expect(created.status, created.text).toBe(201)
    expect(kindOf(await stream.event(1, 3_000))).toBe("flag.created")

    // The stream goes on reading (every second) while the key's transaction stays open.
    await sleep(HELD_MS)
    await server.run(Deferred.succeed(release, undefined))
    const key = await held
    const late = await stream.event(2, 5_000)
    expect(kindOf(late)).toBe("key.created")
    expect(JSON.parse(late.data)).toMatchObject({ resource: { type: "key", key: key.apiKey.id } })
    // Its id is above the flag's: a client resuming from the flag's id still gets it.
    expect(Number(late.id)).toBeGreaterThan(Number(stream.events[1]!.id))
  })
})
