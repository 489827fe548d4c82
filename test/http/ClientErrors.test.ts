/**
 * Requests node's HTTP parser refuses before any handler runs, sent over raw sockets to the
 * standalone server: each gets node's status (431 / 400) with our error envelope, and the
 * connection is closed.
 */
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startServer, type TestServer } from "./fixtures.js"

let t: TestServer
beforeAll(async () => {
  t = await startServer()
})
afterAll(async () => {
  await t?.close()
})

/** Writes raw bytes and collects everything until the server closes the connection. */
const raw = (bytes: string | Buffer) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(t.server.port, "127.0.0.1", () => socket.write(bytes))
    const chunks: Array<Buffer> = []
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("error", reject)
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")))
  })

const parse = (response: string) => {
  const [head, body] = response.split("\r\n\r\n", 2)
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head ?? "")?.[1])
  return { status, head: head ?? "", body: JSON.parse(body ?? "") as { error: { code: string; message: string } } }
}

describe("errors of node's HTTP parser come in the envelope", () => {
  const cases: Array<[string, string | Buffer, number]> = [
    ["a 100 KB URL", `GET /v1/projects?${"a".repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
    ["a 100 KB header", `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(100_000)}\r\n\r\n`, 431],
    ["raw bytes >= 0x80 in the path", Buffer.concat([Buffer.from("GET /v1/flags/"), Buffer.from([0xff, 0x80]), Buffer.from(" HTTP/1.1\r\nHost: x\r\n\r\n")]), 400],
    ["both Content-Length and Transfer-Encoding", "POST /v1/evaluate HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400],
    ["a garbage request line", "HELLO THERE\r\n\r\n", 400]
  ]
  for (const [name, bytes, status] of cases) {
    it(name, async () => {
      const response = parse(await raw(bytes))
      expect(response.status).toBe(status)
      expect(response.head.toLowerCase()).toContain("content-type: application/json")
      expect(response.head.toLowerCase()).toContain("connection: close")
      expect(response.body.error.code).toBe("invalid_request")
      expect(typeof response.body.error.message).toBe("string")
    })
  }
  it("the server keeps serving", async () => {
    expect((await fetch(`${t.url}/health`)).status).toBe(200)
  })
})
