/**
 * A key revoked with the command line (`flagport keys revoke ID`, a process of its own) while a
 * server process serves it under steady use, as an operator does it: every request sent a second
 * after the command returns is refused (the key cache's bound, docs/guide/http.md), and the stream
 * opened with the key ends within 5 s (the contract). The server hears nothing from the CLI on
 * SQLite, so only rechecking the key can end the stream; on PostgreSQL the CLI's notification
 * may do it first.
 */
import { afterEach, describe, expect, it } from "vitest"
import { backends } from "../cli/Databases.js"
import { keyLines, runCli, type ServerProcess, startServer } from "../cli/Process.js"
import { openStream, sleep } from "./sse.js"

const TIMEOUT = 120_000

const children: Array<ServerProcess> = []
afterEach(() => {
  for (const server of children.splice(0)) if (server.child.exitCode === null) server.child.kill("SIGKILL")
})

/** Resolves once `done()` holds (checked every 50 ms); a loaded machine only makes it take longer. */
const until = async (done: () => boolean) => {
  while (!done()) await sleep(50)
}

interface Answer {
  readonly sentAt: number
  readonly status: number
}

describe.each(backends)("a key revoked with the CLI on $name", (backend) => {
  it("refuses requests within a second of the command and ends the key's stream within 5 s", { timeout: TIMEOUT }, async () => {
    const env = { DATABASE_URL: await backend.fresh() }
    const server = await startServer(["serve", "--init"], env)
    children.push(server)
    const key = keyLines(server.output().stdout).SERVER_KEY!
    const listed = await runCli(["keys", "list", "--json"], env)
    const id = (JSON.parse(listed.stdout) as { data: Array<{ id: string; type: string; projectId: string | null }> }).data.find(
      (k) => k.type === "server" && k.projectId === null
    )!.id
    const auth = { authorization: `Bearer ${key}` }
    const path = "/v1/config?projectId=default&environment=production"

    const stream = await openStream(server.baseUrl, `/v1/stream?projectId=default&environment=production`, auth)
    expect(stream.status).toBe(200)
    await stream.event(0)

    // Steady use: one request after another on a kept-alive connection, until told to stop.
    const answers: Array<Answer> = []
    let using = true
    const use = (async () => {
      while (using) {
        const sentAt = performance.now()
        const response = await fetch(`${server.baseUrl}${path}`, { headers: auth })
        await response.arrayBuffer()
        answers.push({ sentAt, status: response.status })
      }
    })()
    // The key is in the server's cache (refreshed every second) and in steady use.
    await until(() => answers.length >= 5 && performance.now() - answers[0]!.sentAt >= 1_500)
    expect(answers.every((a) => a.status === 200)).toBe(true)

    const revoked = await runCli(["keys", "revoke", id], env)
    const returnedAt = performance.now()
    expect(revoked.code).toBe(0)

    const ended = await Promise.race([stream.ended.then(() => performance.now() - returnedAt), sleep(5_000).then(() => undefined)])
    const late = () => answers.filter((a) => a.sentAt >= returnedAt + 1_000)
    await until(() => performance.now() >= returnedAt + 2_000 && late().length >= 5)
    using = false
    await use
    const lastAccepted = Math.max(...answers.filter((a) => a.status === 200).map((a) => a.sentAt)) - returnedAt
    expect({ lastAcceptedMs: Math.round(lastAccepted), lateStatuses: [...new Set(late().map((a) => a.status))] }).toEqual({
      lastAcceptedMs: expect.any(Number),
      lateStatuses: [401]
    })
    expect(ended, "the stream opened with the key is still open 5 s after the CLI returned").toBeDefined()
    stream.close()
  })
})
