/**
 * `diag` is global to the process: with two servers in one process (or a host mounting Flagport
 * twice), closing one must leave the other's OpenTelemetry diagnostics going to its log.
 */
import * as OtelApi from "@opentelemetry/api"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Scope from "effect/Scope"
import { afterEach, describe, expect, it } from "vitest"
import * as DiagLog from "../../adapters/telemetry/DiagLog.js"

/** The layer built in its own scope, its lines kept in `lines` under `name`. */
const build = (name: string, lines: Array<string>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const logger = Logger.make(({ message }) => lines.push(`${name}: ${String(Array.isArray(message) ? message.join(" ") : message)}`))
      yield* Layer.buildWithScope(DiagLog.layer("warn"), scope).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
      return scope
    })
  )
const close = (scope: Scope.CloseableScope) => Effect.runPromise(Scope.close(scope, Exit.void))

describe("DiagLog", () => {
  afterEach(() => OtelApi.diag.disable())

  it("closing the first of two leaves the second's logger; closing the second switches diag off", async () => {
    const lines: Array<string> = []
    const first = await build("first", lines)
    OtelApi.diag.warn("one")
    const second = await build("second", lines)
    OtelApi.diag.warn("two")
    await close(first)
    OtelApi.diag.warn("three")
    await close(second)
    OtelApi.diag.warn("four")
    expect(lines).toEqual(["first: one", "second: two", "second: three"])
  })

  it("below its level nothing is written", async () => {
    const lines: Array<string> = []
    const scope = await build("only", lines)
    OtelApi.diag.info("not at warn")
    OtelApi.diag.error("at error")
    await close(scope)
    expect(lines).toEqual(["only: at error"])
  })
})
