import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { StorageError } from "../../src/ports/StorageError.js"
import { WebhookRepository } from "../../src/ports/WebhookRepository.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import * as WebhookDispatcher from "../../src/services/webhooks/WebhookDispatcher.js"
import { Webhooks } from "../../src/services/webhooks/Webhooks.js"
import { webhookEnv } from "./fixtures/Env.js"
import { receiver } from "./fixtures/Receiver.js"

const realPause = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))

describe("WebhookDispatcher loop", () => {
  it.effect("a failed round is logged and the loop carries on at the next poll", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.now())
      const r = yield* receiver(() => 200)
      yield* (yield* Projects).create({ id: "p", name: "P" })
      yield* (yield* Environments).create("p", { key: "production", name: "Production" })
      yield* (yield* Webhooks).create("p", { url: r.url, events: ["flag.created"] })
      yield* (yield* Flags).create("p", {
        key: "f",
        name: "f",
        type: "boolean",
        variations: [
          { key: "on", value: true },
          { key: "off", value: false }
        ]
      })

      // Storage fails the first two claims (as if the database were briefly unreachable).
      const repo = yield* WebhookRepository
      let calls = 0
      const flaky = Layer.succeed(WebhookRepository, {
        ...repo,
        claimDue: (request) =>
          calls++ < 2 ? Effect.fail(new StorageError({ message: "database unreachable" })) : repo.claimDue(request)
      })
      yield* Layer.build(WebhookDispatcher.layerWith({ pollInterval: "1 second" }).pipe(Layer.provide(flaky)))
      yield* realPause
      expect(r.received).toHaveLength(0)
      yield* TestClock.adjust("1 second")
      yield* realPause
      expect(r.received).toHaveLength(0)
      yield* TestClock.adjust("1 second")
      yield* Effect.promise(() => r.waitFor(1))
      expect(calls).toBeGreaterThanOrEqual(3)
    }).pipe(Effect.provide(webhookEnv("memory")), Effect.scoped))
})
