/**
 * Write coalescing (`endSoon`): the lane's node answers are ended together at the end of the
 * event-loop turn. Through a real node:http server: every answer leaves, in order on a pipelined
 * connection, with its body intact; none leaves before the turn ends; and one answer that cannot
 * be ended does not keep the rest of its batch from leaving.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { connect } from "node:net"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { endSoon } from "../../adapters/http/serving/EndBatch.js"

const servers: Array<Server> = []

const listen = async (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> => {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return (server.address() as { port: number }).port
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

const answerWithPath = (req: IncomingMessage, res: ServerResponse): void => {
  const body = `answer to ${req.url}`
  res.writeHead(200, { "content-type": "text/plain", "content-length": Buffer.byteLength(body) })
  endSoon(res, body)
}

describe("endSoon", () => {
  it("answers many concurrent requests, each with its own body", async () => {
    const port = await listen(answerWithPath)
    const paths = Array.from({ length: 200 }, (_, i) => `/r${i}`)
    const bodies = await Promise.all(paths.map((path) => fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.text())))
    expect(bodies).toEqual(paths.map((path) => `answer to ${path}`))
  })

  it("keeps the order of pipelined requests on one connection", async () => {
    const port = await listen(answerWithPath)
    const paths = Array.from({ length: 20 }, (_, i) => `/p${i}`)
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1")
      let received = ""
      socket.setEncoding("utf8")
      socket.on("data", (chunk: string) => {
        received += chunk
        if (received.includes(`answer to /p${paths.length - 1}`)) {
          socket.end()
          resolve(received)
        }
      })
      socket.on("error", reject)
      // All requests in one write: node reads them in one turn and answers them in one batch.
      socket.write(paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`).join(""))
    })
    const answered = [...raw.matchAll(/answer to (\/p\d+)/g)].map((match) => match[1])
    expect(answered).toEqual(paths)
  })

  it("answers a request without a body (304)", async () => {
    const port = await listen((_req, res) => {
      res.writeHead(304, { etag: '"v1"' })
      endSoon(res)
    })
    const response = await fetch(`http://127.0.0.1:${port}/`)
    expect(response.status).toBe(304)
    expect(response.headers.get("etag")).toBe('"v1"')
  })

  it("ends nothing before the turn is over, and everything right after it", async () => {
    let endedInTurn: boolean | undefined
    let endedAfterTurn: boolean | undefined
    const port = await listen((req, res) => {
      answerWithPath(req, res)
      endedInTurn = res.writableEnded
      setImmediate(() => {
        endedAfterTurn = res.writableEnded
      })
    })
    await fetch(`http://127.0.0.1:${port}/once`).then((r) => r.text())
    await new Promise((resolve) => setImmediate(resolve))
    expect(endedInTurn).toBe(false)
    expect(endedAfterTurn).toBe(true)
  })

  it("destroys an answer whose end throws, and still ends the others of its batch", async () => {
    const destroyed: Array<unknown> = []
    const failing = {
      end: () => {
        throw new Error("socket gone")
      },
      destroy: (error: unknown) => destroyed.push(error)
    } as unknown as ServerResponse
    const ended: Array<string> = []
    const healthy = (name: string) => ({ end: (body: string) => ended.push(`${name}:${body}`) }) as unknown as ServerResponse

    endSoon(healthy("first"), "a")
    endSoon(failing, "b")
    endSoon(healthy("last"), "c")
    expect(ended).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))

    expect(ended).toEqual(["first:a", "last:c"])
    expect(destroyed).toHaveLength(1)
    expect((destroyed[0] as Error).message).toBe("socket gone")
  })
})
