import { spawn } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { rmSync } from "node:fs"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { bundleScript } from "../fixtures/bundle.js"
import { freshPostgresUrl, freshSqliteFile } from "../fixtures/databases.js"

const WRITER = join(import.meta.dirname, "durability-writer.ts")
// Inside the repository, so that the bundle's bare imports resolve to our node_modules.
const BUNDLE = fileURLToPath(
  new URL(`../../node_modules/.cache/flagport-storage-test/durability-writer-${process.pid}.mjs`, import.meta.url)
)

/**
 * The writer as one ESM file (our sources bundled, packages external): it starts several times
 * faster than through tsx's on-the-fly transpiling, which matters on a loaded machine. It runs as
 * `node` itself, with no wrapper process (`npx tsx` would put npx and tsx in between), so the
 * SIGKILL hits the process that holds the database.
 */
const writerScript = Effect.promise(() => bundleScript(WRITER, BUNDLE)).pipe(Effect.cached, Effect.runSync)
/** Acknowledged writes to wait for before the kill. */
const ACKS_BEFORE_KILL = 25

interface Ack {
  readonly n: number
  readonly version: number
}

/**
 * Runs the writer, SIGKILLs it right after its ACKS_BEFORE_KILL-th acknowledgement (while it is
 * busy with the next write) and returns every acknowledgement it printed.
 */
const runAndKill = (databaseUrl: string) =>
  Effect.flatMap(writerScript, (script) => Effect.async<ReadonlyArray<Ack>, Error>((resume) => {
    const child = spawn(process.execPath, [script, databaseUrl], { stdio: ["ignore", "pipe", "pipe"] })
    const acks: Array<Ack> = []
    let buffer = ""
    let stderr = ""
    let killed = false
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (chunk: string) => {
      buffer += chunk
      let newline: number
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 1)
        const match = /^ACK (\d+) (\d+)$/.exec(line)
        if (match) acks.push({ n: Number(match[1]), version: Number(match[2]) })
      }
      if (!killed && acks.length >= ACKS_BEFORE_KILL) {
        killed = true
        child.kill("SIGKILL")
      }
    })
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on("exit", (_code, signal) => {
      if (signal === "SIGKILL" && killed) resume(Effect.succeed(acks))
      else resume(Effect.fail(new Error(`writer exited (${signal ?? _code}) before the kill:\n${stderr}`)))
    })
    return Effect.sync(() => child.kill("SIGKILL"))
  })).pipe(Effect.timeoutFail({ duration: "60 seconds", onTimeout: () => new Error("writer too slow") }))

/** Reopens the database (the "restart": migrations run again) and checks every acknowledged write. */
const verify = (databaseUrl: string, acks: ReadonlyArray<Ack>) =>
  Effect.gen(function* () {
    const flags = yield* (yield* Flags).list("durable")
    const byKey = new Map(flags.map((f) => [f.key, f]))
    for (const ack of acks) {
      const flag = byKey.get(`f-${ack.n}`)
      expect(flag, `acknowledged flag f-${ack.n}`).toBeDefined()
      expect(flag!.version).toBe(ack.version)
      const production = flag!.configs.find((c) => c.environmentKey === "production")!
      expect(production).toMatchObject({ enabled: true, defaultVariationKey: "high" })
      expect(production.rules[0]!.id).toBe(`r-${ack.n}`)
    }
    // Writes may have committed after the last acknowledgement the parent read (the kill takes
    // a moment), but only as a gap-free continuation: f-1 .. f-m, no holes.
    expect(flags.map((f) => f.key)).toEqual(Array.from({ length: flags.length }, (_, i) => `f-${i + 1}`))
    expect(flags.length).toBeGreaterThanOrEqual(acks.length)
  }).pipe(Effect.provide(Layer.orDie(StorageLayer.fromDatabaseUrl(databaseUrl))))

afterAll(() => rmSync(BUNDLE, { force: true }))

describe("acknowledged writes survive SIGKILL", () => {
  it.scoped(
    "SQLite file",
    () =>
      Effect.gen(function* () {
        const file = yield* freshSqliteFile
        const url = `sqlite:${file}`
        const acks = yield* runAndKill(url)
        expect(acks.length).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL)
        yield* verify(url, acks)
      }),
    90_000
  )

  it.scoped(
    "PostgreSQL",
    () =>
      Effect.gen(function* () {
        const url = yield* freshPostgresUrl
        const acks = yield* runAndKill(url)
        expect(acks.length).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL)
        yield* verify(url, acks)
      }),
    90_000
  )
})
