/**
 * The embedded PostgreSQL of the test setup says why it cannot start: PostgreSQL's own words when
 * the server refuses its configuration, and, when the tests run as root (the server then runs as
 * another account), which directory that account cannot reach.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { startEmbeddedPostgres } from "./EmbeddedPostgres.js"
import { assertAccessible, serverAccount } from "./ServerAccount.js"

describe("startEmbeddedPostgres", () => {
  it("rejects with PostgreSQL's own explanation when the server cannot start", async () => {
    const start = startEmbeddedPostgres({ serverFlags: ["-c", "max_connections=many"] })
    await expect(start).rejects.toThrow(/Embedded PostgreSQL failed to start: PostgreSQL exited with code 1 while starting:\n.*invalid value for parameter "max_connections": "many"/s)
  })
})

const account = serverAccount()

describe.runIf(account !== undefined)("as root, what the server account can reach", () => {
  let dir = ""
  let inside = ""
  beforeEach(() => {
    // mkdtemp makes the directory with mode 700, as `mktemp -d` does; inside it, one anybody may write.
    dir = mkdtempSync(join(tmpdir(), "flagport-reach-"))
    inside = join(dir, "data")
    mkdirSync(inside)
    chmodSync(inside, 0o777)
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it("refuses a directory under one only root can enter, naming it and the account", () => {
    expect(() => assertAccessible(account!, inside, "write", "Set TMPDIR.")).toThrow(
      `PostgreSQL runs as the user "${account!.name}" (uid ${account!.uid}) because it refuses to run as root, and that user cannot reach ${inside}`
    )
  })

  it("accepts the same directory once the one above it can be traversed", () => {
    chmodSync(dir, 0o755)
    expect(() => assertAccessible(account!, inside, "write", "Set TMPDIR.")).not.toThrow()
  })
})
