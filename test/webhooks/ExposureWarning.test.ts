/**
 * At start, the server warns when webhooks may reach private addresses while projects have server
 * keys of their own (issue 26, item 4); not when blocking is on, nor when only global keys exist.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Logger } from "effect"
import * as ExposureWarning from "../../adapters/webhook-http/ExposureWarning.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { Projects } from "../../src/services/projects/Projects.js"

const warningsAtStart = (env: Record<string, string>, projectKey: boolean) =>
  Effect.gen(function* () {
    const keys = yield* ApiKeys
    yield* (yield* Projects).create({ id: "p1", name: "P1" })
    yield* keys.create({ type: "server", projectId: null })
    yield* keys.create({ type: "client", projectId: "p1" })
    if (projectKey) yield* keys.create({ type: "server", projectId: "p1" })
    const logs: Array<string> = []
    const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => logs.push(String(message))))
    yield* Effect.scoped(Layer.build(ExposureWarning.layer)).pipe(
      Effect.provide(Layer.mergeAll(capture, Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
    )
    return logs
  }).pipe(Effect.provide(StorageLayer.memoryStorage))

describe("the webhook exposure warning at start", () => {
  it.live("is logged when private destinations are allowed and a project has its own server key", () =>
    Effect.gen(function* () {
      expect(yield* warningsAtStart({}, true)).toEqual([ExposureWarning.message(1)])
      expect(ExposureWarning.message(1)).toContain("FLAGPORT_WEBHOOK_BLOCK_PRIVATE=true")
      expect(yield* warningsAtStart({ FLAGPORT_WEBHOOK_BLOCK_PRIVATE: "true" }, true)).toEqual([])
      expect(yield* warningsAtStart({}, false)).toEqual([])
    }))
})
