/**
 * The SQLite database holds webhook secrets and the stream-token signing secret: it and its
 * -wal / -shm files are created readable by their owner only (0600), and a folder Flagport
 * creates for it 0700, whatever the process's umask (issue 26, item 8).
 */
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Logger } from "effect"
import { Projects } from "../../src/services/projects/Projects.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { request, startServer } from "../http/fixtures.js"

const dirs: Array<string> = []
const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const modeOf = (path: string) => statSync(path).mode & 0o777

describe("the SQLite database file", () => {
  it("and its -wal and -shm are 0600, a folder made for them 0700, even under umask 000", async () => {
    const root = mkdtempSync(join(tmpdir(), "flagport-mode-"))
    dirs.push(root)
    const file = join(root, "made", "flagport.db")
    const previous = process.umask(0)
    try {
      const t = await startServer(StorageLayer.fromDatabaseUrl(`sqlite:${file}`))
      closers.push(t.close)
      const created = await request(t.url, "POST", "/v1/projects/p1/flags", {
        key: t.keys.scoped,
        body: { key: "mode", name: "Mode", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
      })
      expect(created.status).toBe(201)
      expect(modeOf(join(root, "made")).toString(8)).toBe("700")
      for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(`${path}: ${modeOf(path).toString(8)}`).toBe(`${path}: 600`)
    } finally {
      process.umask(previous)
    }
  })

  it("that already exists readable by others keeps its mode, with a warning at start", async () => {
    const root = mkdtempSync(join(tmpdir(), "flagport-mode-"))
    dirs.push(root)
    const file = join(root, "old.db")
    writeFileSync(file, "")
    chmodSync(file, 0o644)
    const logs: Array<string> = []
    const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => logs.push(String(message))))
    await Effect.runPromise(
      Effect.flatMap(Projects, (projects) => projects.list()).pipe(
        Effect.provide(StorageLayer.fromDatabaseUrl(`sqlite:${file}`)),
        Effect.provide(capture)
      )
    )
    expect(modeOf(file).toString(8)).toBe("644")
    expect(logs.join("\n")).toContain("may be read by other users (mode 644)")
  })
})
