/**
 * The flags list's paging and narrowing through the standalone server over HTTP on SQLite
 * (`GET /v1/projects/{p}/flags?limit=&cursor=&q=&type=&status=`): without `limit` and `cursor`
 * every flag in creation order as before; pages in key order whose cursors chain through every
 * flag exactly once, also when flags are created and deleted between pages; the search and type
 * filters with paging; a `limit` out of range, a malformed one and a forged cursor refused with a
 * 400 naming the parameter; a bound key's page. The paging is computed above storage (FlagList.ts,
 * over the list every backend answers), so one backend is enough here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

interface FlagBody {
  readonly key: string
  readonly name: string
  readonly type: string
  readonly configs: ReadonlyArray<{ readonly environmentKey: string }>
}
interface Page {
  readonly data: ReadonlyArray<FlagBody>
  readonly nextCursor: string | null
}

let t: TestServer

const call = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })

const list = async (query: string): Promise<Page> => {
  const reply = await call("GET", `/v1/projects/p1/flags${query}`)
  expect(reply.status, reply.text).toBe(200)
  return reply.body as Page
}

/** Every page of `query` (without its `cursor`), following `nextCursor` to the end. */
const allPages = async (query: string): Promise<ReadonlyArray<ReadonlyArray<string>>> => {
  const pages: Array<ReadonlyArray<string>> = []
  let cursor: string | null = null
  do {
    const page: Page = await list(`${query}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`)
    pages.push(page.data.map((f) => f.key))
    cursor = page.nextCursor
  } while (cursor !== null && pages.length < 50)
  return pages
}

const createFlag = async (key: string, type: "boolean" | "string" = "boolean", name?: string) => {
  const variations = type === "boolean" ? [{ key: "on", value: true }, { key: "off", value: false }] : [{ key: "a", value: "a" }, { key: "b", value: "b" }]
  const reply = await call("POST", "/v1/projects/p1/flags", { key, type, variations, ...(name === undefined ? {} : { name }) })
  expect(reply.status, reply.text).toBe(201)
}

// Created out of key order, so creation order and key order differ.
const CREATED = ["delta", "alpha", "echo", "charlie", "bravo"]

beforeAll(async () => {
  t = await startServer(freshStorage("sqlite"))
  for (const key of CREATED) await createFlag(key)
  await createFlag("banner-text", "string", "Header Banner")
}, 60_000)

afterAll(async () => {
  await t?.close()
})

describe("GET /v1/projects/{p}/flags paging", () => {
  it("answers every flag in creation order without limit or cursor, with a null nextCursor", async () => {
    const all = await list("")
    expect(all.data.map((f) => f.key)).toEqual([...CREATED, "banner-text"])
    expect(all.nextCursor).toBeNull()
    expect(all.data[0]!.configs.map((c) => c.environmentKey)).toEqual(["development", "production"])
  })

  it("pages in key order; the cursors chain through every flag exactly once", async () => {
    const pages = await allPages("?limit=2")
    expect(pages).toEqual([["alpha", "banner-text"], ["bravo", "charlie"], ["delta", "echo"]])
    const last = await list("?limit=6")
    expect(last.data).toHaveLength(6)
    expect(last.nextCursor).toBeNull()
    // A cursor alone asks for a page of the default size (50): here, the rest.
    const first = await list("?limit=1")
    expect((await list(`?cursor=${first.nextCursor}`)).data.map((f) => f.key)).toEqual(["banner-text", "bravo", "charlie", "delta", "echo"])
  })

  it("neither repeats nor skips a flag when flags are created and deleted between pages", async () => {
    const first = await list("?limit=2")
    expect(first.data.map((f) => f.key)).toEqual(["alpha", "banner-text"])
    // The flag the cursor names is deleted, one before it and one after it are created.
    expect((await call("DELETE", "/v1/projects/p1/flags/banner-text")).status).toBe(204)
    await createFlag("aardvark")
    await createFlag("bison")
    const rest: Array<string> = []
    let cursor = first.nextCursor
    while (cursor !== null) {
      const page = await list(`?limit=2&cursor=${cursor}`)
      rest.push(...page.data.map((f) => f.key))
      cursor = page.nextCursor
    }
    expect(rest).toEqual(["bison", "bravo", "charlie", "delta", "echo"])
    await call("DELETE", "/v1/projects/p1/flags/aardvark")
    await call("DELETE", "/v1/projects/p1/flags/bison")
    await createFlag("banner-text", "string", "Header Banner")
  })

  it("searches keys and names ignoring case, and narrows by type, paged or not", async () => {
    expect((await list("?q=AN")).data.map((f) => f.key)).toEqual(["banner-text"])
    // The name matches though the key does not.
    expect((await list("?q=header")).data.map((f) => f.key)).toEqual(["banner-text"])
    expect((await list("?q=a&limit=2")).data.map((f) => f.key)).toEqual(["alpha", "banner-text"])
    expect(await allPages("?q=a&limit=2")).toEqual([["alpha", "banner-text"], ["bravo", "charlie"], ["delta"]])
    expect((await list("?type=string")).data.map((f) => f.key)).toEqual(["banner-text"])
    expect(await allPages("?type=boolean&limit=3")).toEqual([["alpha", "bravo", "charlie"], ["delta", "echo"]])
    expect(await list("?q=nothing-like-this&limit=5")).toEqual({ data: [], nextCursor: null })
  })

  it("refuses a limit out of range, a malformed one and a cursor it never answered, naming the parameter", async () => {
    for (const [query, path] of [
      ["?limit=0", "limit"],
      ["?limit=201", "limit"],
      ["?limit=ten", "limit"],
      ["?limit=2.5", "limit"],
      ["?cursor=not-a-cursor", "cursor"],
      // base64url of "audit:12": another list's cursor
      ["?cursor=YXVkaXQ6MTI", "cursor"],
      ["?type=date", "type"]
    ] as const) {
      const reply = await call("GET", `/v1/projects/p1/flags${query}`)
      expect(reply.status, query).toBe(400)
      const error = (reply.body as { error: { code: string; details: ReadonlyArray<{ path: string }> } }).error
      expect(error.code, query).toBe("invalid_request")
      expect(error.details.map((d) => d.path), query).toContain(path)
    }
  })

  it("gives a key bound to an environment each flag of a page with that environment's configuration only", async () => {
    const made = await call("POST", "/v1/projects/p1/keys", { type: "server", name: "Production robot", environment: "production" })
    expect(made.status, made.text).toBe(201)
    const reply = await request(t.url, "GET", "/v1/projects/p1/flags?limit=2", { key: (made.body as { key: string }).key })
    expect(reply.status, reply.text).toBe(200)
    const page = reply.body as Page
    expect(page.data.map((f) => f.key)).toEqual(["alpha", "banner-text"])
    expect(page.data.every((f) => f.configs.length === 1 && f.configs[0]!.environmentKey === "production")).toBe(true)
    expect(page.nextCursor).not.toBeNull()
  })
})
