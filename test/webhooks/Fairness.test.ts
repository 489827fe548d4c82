/**
 * One project's burst of deliveries must not starve another's (issue 26, item 5): with 8 send
 * slots, project A's 20 webhooks all hang, yet project B's delivery goes out at once, and A never
 * holds more than its share (a quarter of the slots). The real dispatcher loop, the real HTTP
 * transport and real receivers, on memory, SQLite and PostgreSQL.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import * as WebhookDispatcher from "../../src/services/webhooks/WebhookDispatcher.js"
import { Webhooks } from "../../src/services/webhooks/Webhooks.js"
import { claimPlan } from "../../src/domain/webhooks/WebhookQuota.js"
import { webhookEnv } from "./fixtures/Env.js"
import { booleanFlag } from "./fixtures/Flags.js"
import { receiver } from "./fixtures/Receiver.js"

const sleep = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

for (const backend of ["memory", "sqlite", "postgres"] as const) {
  describe(`dispatcher fairness (${backend})`, () => {
    it.live("a project whose webhooks all hang holds its share of the slots; another project's delivery goes out at once", () =>
      Effect.gen(function* () {
        const hanging = yield* receiver(() => "hang")
        const fast = yield* receiver(() => 204)
        const webhooks = yield* Webhooks
        for (const id of ["a", "b"]) {
          yield* (yield* Projects).create({ id, name: id })
          yield* (yield* Environments).create(id, { key: "production", name: "Production" })
        }
        for (let i = 0; i < 20; i++) yield* webhooks.create("a", { url: `${hanging.url}?${i}`, events: ["flag.created"] })
        yield* webhooks.create("b", { url: fast.url, events: ["flag.created"] })
        // A's event first, so A's 20 deliveries come before B's in the queue.
        yield* (yield* Flags).create("a", booleanFlag("burst"))
        yield* (yield* Flags).create("b", booleanFlag("victim"))

        yield* Layer.build(WebhookDispatcher.layerWith({ pollInterval: "100 millis", concurrency: 8 }))
        const started = Date.now()
        yield* Effect.promise(() => fast.waitFor(1, 3_000))
        expect(Date.now() - started).toBeLessThan(3_000)
        yield* sleep(300)
        // A's share of 8 slots: 2 sends in flight, whatever else is free.
        expect(hanging.received.length).toBe(2)
      }).pipe(Effect.scoped, Effect.provide(webhookEnv(backend, { timeout: "8 seconds" }))), 30_000)
  })
}

describe("WebhookQuota.claimPlan", () => {
  it("deals free slots round-robin, the longest-waiting project first, none past its limit", () => {
    const inFlight = (counts: Record<string, number>) => (p: string) => counts[p] ?? 0
    expect(claimPlan(["a", "b", "c"], inFlight({}), 5, 10)).toEqual([["a", 2], ["b", 2], ["c", 1]])
    expect(claimPlan(["a", "b"], inFlight({ a: 2 }), 8, 2)).toEqual([["b", 2]])
    expect(claimPlan(["a"], inFlight({ a: 1 }), 8, 4)).toEqual([["a", 3]])
    expect(claimPlan(["a", "b"], inFlight({}), 0, 4)).toEqual([])
  })
})
