/** A segment's key lists: streamed uploads (by length and chunked, past the 1 MiB of JSON bodies), changes, downloads, and their 400s / 404s / 415s. */
import { describe, expect, it } from "@effect/vitest"
import type { Endpoints } from "./harness.js"

const LIST = "/v1/projects/p1/segments/listed/keys"

/** A body sent chunked (no Content-Length), in pieces as a client streaming a file would. */
const chunked = (t: Endpoints["t"], path: string, pieces: ReadonlyArray<string>, contentType = "text/plain") => {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece))
      controller.close()
    }
  })
  return fetch(`${t.url}${path}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${t.keys.global}`, "content-type": contentType },
    body,
    duplex: "half"
  } as RequestInit)
}

export const segmentKeys = ({ call, expectError, t }: Endpoints) =>
  describe("segment key lists", () => {
    const text = (body: string, type = "text/plain") => ({ headers: { "content-type": type } as Record<string, string>, body })
    const put = (list: string, body: string, type?: string) => {
      const { headers } = text(body, type)
      return call("PUT", `${LIST}/${list}`, body, { headers })
    }

    it("PUT replaces from text and CSV, PATCH adds and removes, GET streams the keys back with the version as ETag", async () => {
      expect((await call("POST", "/v1/projects/p1/segments", { key: "listed", name: "Listed", conditions: [] })).status).toBe(201)
      const lines = await put("included", "ada\r\nedsger\n\nada\n")
      expect(lines.status, lines.text).toBe(200)
      expect(lines.body).toMatchObject({ list: "included", version: 1, count: 2 })
      expect(lines.headers.get("etag")).toBe("\"1\"")
      const csv = await put("excluded", "name,key\n\"Hopper, G\",grace\n", "text/csv; charset=utf-8")
      expect(csv.body).toMatchObject({ list: "excluded", version: 1, count: 1 })
      const patched = await call("PATCH", `${LIST}/included`, { add: ["barbara"], remove: ["ada"] })
      expect(patched.body).toMatchObject({ version: 2, count: 2 })
      const read = await call("GET", `${LIST}/included`)
      expect(read.status).toBe(200)
      expect(read.headers.get("content-type")).toContain("text/plain")
      expect(read.headers.get("etag")).toBe("\"2\"")
      expect(read.headers.get("flagport-key-count")).toBe("2")
      expect(read.text.split("\n").filter((k) => k !== "").sort()).toEqual(["barbara", "edsger"])
      const lists = await call("GET", LIST)
      expect(lists.body).toMatchObject({ included: { version: 2, count: 2 }, excluded: { version: 1, count: 1 } })
    })

    it("a chunked upload of 150,000 keys (well past 1 MiB) streams in whole", async () => {
      const keys = Array.from({ length: 150_000 }, (_, i) => `account-${i.toString().padStart(8, "0")}`)
      const pieces = Array.from({ length: 30 }, (_, i) => keys.slice(i * 5000, (i + 1) * 5000).join("\n") + "\n")
      const reply = await chunked(t, `${LIST}/included`, pieces)
      expect(reply.status, await reply.clone().text()).toBe(200)
      expect(await reply.json()).toMatchObject({ version: 3, count: 150_000 })
      const read = await call("GET", `${LIST}/included`)
      expect(read.text.split("\n").filter((k) => k !== "").length).toBe(150_000)
    })

    it("400 for a key too long, bad CSV, an unknown list or too many keys a change; 415 for JSON; 404; nothing changes", async () => {
      const before = (await call("GET", LIST)).body
      const long = expectError("segmentKeys.keyTooLong", await put("included", `ok\n${"x".repeat(257)}\n`), 400, "invalid_request")
      expect(long).toMatchObject({ error: { details: [{ path: "line 2", message: "the key must be at most 256 characters" }] } })
      expectError("segmentKeys.badCsv", await put("included", "key\n\"unclosed\n", "text/csv"), 400, "invalid_request")
      expectError("segmentKeys.csvNoHeader", await put("included", "", "text/csv"), 400, "invalid_request")
      expectError("segmentKeys.unknownList", await put("others", "a\n"), 400, "invalid_request")
      expectError("segmentKeys.json", await call("PUT", `${LIST}/included`, { keys: ["a"] }), 415, "unsupported_media_type")
      expectError(
        "segmentKeys.patchTooMany",
        await call("PATCH", `${LIST}/included`, { add: Array.from({ length: 10_001 }, (_, i) => `k${i}`) }),
        400,
        "invalid_request"
      )
      expectError("segmentKeys.patchUnknownField", await call("PATCH", `${LIST}/included`, { keys: ["a"] }), 400, "invalid_request")
      expectError("segmentKeys.unknownSegment", await call("PUT", "/v1/projects/p1/segments/nope/keys/included", "a\n", { headers: { "content-type": "text/plain" } }), 404, "not_found")
      expectError("segmentKeys.unknownSegmentRead", await call("GET", "/v1/projects/p1/segments/nope/keys/included"), 404, "not_found")
      expect((await call("GET", LIST)).body).toEqual(before)
    })
  })
