/**
 * `flagport import flagd --url URL`: the flag definition file fetched over HTTP from a real local
 * server, then imported as a file on disk is (JSON, or YAML by content type or extension). The
 * failures are one line naming the URL, exit 1, nothing written: an error status, nobody
 * listening, an answer too large or too slow (these two through RemoteFile.ts with small limits,
 * so the test does not wait 30 s or send 10 MiB), bytes that are not text; a URL that is not
 * http(s), or FILE and --url together, are the command line's fault (exit 2).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Either } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { stringify } from "yaml"
import { fetchFile, httpUrl } from "../../adapters/cli/RemoteFile.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { withStorage } from "./Databases.js"
import { freePort, freshSqliteUrl, runCli } from "./Process.js"

const TIMEOUT = 120_000
const env = { DATABASE_URL: freshSqliteUrl() }

const flagdFile = (key: string) => ({ flags: { [key]: { state: "ENABLED", variants: { on: true, off: false }, defaultVariant: "off", targeting: { if: [{ "==": [{ var: "plan" }, "pro"] }, "on"] } } } })

let server: Server
let base: string

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? "/"
    if (path === "/flags.json") return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(flagdFile("from-json")))
    if (path === "/config") return void response.writeHead(200, { "content-type": "application/yaml" }).end(stringify(flagdFile("from-yaml")))
    if (path === "/raw/flags.flagd.yaml") return void response.writeHead(200, { "content-type": "text/plain" }).end(stringify(flagdFile("from-yaml-path")))
    if (path === "/big") return void response.writeHead(200, { "content-type": "application/json" }).end("x".repeat(5_000))
    if (path === "/big-chunked") {
      response.writeHead(200, { "content-type": "application/json" })
      for (let i = 0; i < 5; i++) response.write("y".repeat(1_000))
      return void response.end()
    }
    if (path === "/slow") return void response.writeHead(200, { "content-type": "application/json" }).write("{")
    if (path === "/private.json") {
      const expected = `Basic ${Buffer.from("user:s3cret").toString("base64")}`
      if (request.headers.authorization !== expected) return void response.writeHead(401).end()
      return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(flagdFile("private")))
    }
    if (path === "/binary") return void response.writeHead(200).end(Buffer.from([0xff, 0xfe, 0xfd]))
    response.writeHead(404, { "content-type": "text/plain" }).end("no such file")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  expect((await runCli(["seed"], env)).code).toBe(0)
}, TIMEOUT)
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const flagKeys = () => withStorage(env.DATABASE_URL, Effect.map(Effect.flatMap(Flags, (flags) => flags.list("default")), (list) => list.map((f) => f.key)))

describe("flagport import flagd --url", () => {
  it("imports the JSON a server answers, and YAML by its content type or its path", { timeout: TIMEOUT }, async () => {
    const json = await runCli(["import", "flagd", "--url", `${base}/flags.json`, "--environment", "production"], env)
    expect(json.code, json.stderr).toBe(0)
    expect(json.stdout).toMatch(/from-json\s+imported\s+1 rule\(s\)/)
    const yaml = await runCli(["import", "flagd", "--url", `${base}/config`, "--environment", "production", "--json"], env)
    expect(yaml.code, yaml.stderr).toBe(0)
    expect(JSON.parse(yaml.stdout)).toMatchObject({ written: true, flags: [{ key: "from-yaml", result: "imported" }] })
    // A repository's raw view answers text/plain: the path's extension says YAML.
    const byPath = await runCli(["import", "flagd", "--url", `${base}/raw/flags.flagd.yaml`, "--environment", "production"], env)
    expect(byPath.code, byPath.stderr).toBe(0)
    expect((await flagKeys()).sort()).toEqual(["from-json", "from-yaml", "from-yaml-path"])
  })

  it("an error status, nobody listening, bytes that are not text: one line naming the URL, exit 1, nothing written", { timeout: TIMEOUT }, async () => {
    const before = await flagKeys()
    const missing = await runCli(["import", "flagd", "--url", `${base}/missing.json`, "--environment", "production"], env)
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe(`error: ${base}/missing.json answered 404 Not Found\n`)
    const closed = `http://127.0.0.1:${await freePort()}/flags.json`
    const refused = await runCli(["import", "flagd", "--url", closed, "--environment", "production"], env)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(new RegExp(`^error: cannot fetch ${closed.replace(/[.]/g, "\\.")}: ECONNREFUSED`))
    const binary = await runCli(["import", "flagd", "--url", `${base}/binary`, "--environment", "production"], env)
    expect(binary.code).toBe(1)
    expect(binary.stderr).toBe(`error: ${base}/binary answered bytes that are not UTF-8 text\n`)
    expect(await flagKeys()).toEqual(before)
  })

  it("a URL that is not http(s), or FILE with --url: the command line's fault, exit 2", { timeout: TIMEOUT }, async () => {
    const ftp = await runCli(["import", "flagd", "--url", "ftp://example.com/flags.json", "--environment", "production"], env)
    expect(ftp.code).toBe(2)
    expect(ftp.stderr).toBe(`error: --url takes an http:// or https:// URL, not "ftp://example.com/flags.json"\n`)
    const both = await runCli(["import", "flagd", "flags.json", "--url", `${base}/flags.json`, "--environment", "production"], env)
    expect(both.code).toBe(2)
    expect(both.stderr).toContain("a FILE, or --url URL to fetch it (one of the two)")
    const neither = await runCli(["import", "flagd", "--environment", "production"], env)
    expect(neither.code).toBe(2)
  })
})

describe("RemoteFile's limits", () => {
  const fetchWith = (path: string, limits = { timeoutMs: 500, maxBytes: 1_000 }) =>
    Effect.runPromise(Effect.either(Effect.flatMap(httpUrl(`${base}${path}`), (url) => fetchFile(url, limits))))

  it("refuses an answer over the size, announced or chunked, and one slower than the time", async () => {
    for (const path of ["/big", "/big-chunked"]) {
      const answer = await fetchWith(path)
      expect(Either.isLeft(answer) && answer.left.message).toBe(`${base}${path} answered more than 1000 bytes: that is no flag definition file (check the URL)`)
    }
    const started = Date.now()
    const slow = await fetchWith("/slow")
    expect(Either.isLeft(slow) && slow.left.message).toBe(`${base}/slow did not answer within 0.5 s`)
    expect(Date.now() - started).toBeLessThan(5_000)
    const fine = await fetchWith("/flags.json")
    expect(Either.isRight(fine) && JSON.parse(fine.right.text)).toEqual(flagdFile("from-json"))
  })

  it("sends a URL's user and password as Basic authentication, and never shows the password", async () => {
    const url = `http://user:s3cret@${base.replace("http://", "")}/private.json`
    const fine = await Effect.runPromise(Effect.either(Effect.flatMap(httpUrl(url), (u) => fetchFile(u))))
    expect(Either.isRight(fine) && JSON.parse(fine.right.text)).toEqual(flagdFile("private"))
    const wrong = await Effect.runPromise(Effect.either(Effect.flatMap(httpUrl(url.replace("s3cret", "wrong")), (u) => fetchFile(u))))
    expect(Either.isLeft(wrong) && wrong.left.message).toBe(`${base.replace("http://", "http://user:***@")}/private.json answered 401 Unauthorized`)
    const answer = await Effect.runPromise(Effect.either(Effect.flatMap(httpUrl(`http://user:s3cret@127.0.0.1:${await freePort()}/x`), (url) => fetchFile(url))))
    expect(Either.isLeft(answer) && answer.left.message).toMatch(/^cannot fetch http:\/\/user:\*\*\*@127\.0\.0\.1:\d+\/x: /)
    expect(Either.isLeft(answer) && answer.left.message).not.toContain("s3cret")
  })
})
