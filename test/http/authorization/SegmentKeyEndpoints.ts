/** The matrix rows of a segment's key lists: read with `read`, written with `write` (every environment's rules may use a segment, so no bound key writes). */
import { Stream } from "effect"
import { SegmentKeys } from "../../../src/services/segments/SegmentKeys.js"
import { type Endpoint, EVERY_ENVIRONMENT, freshSegment, use } from "./Endpoint.js"

const upload = (text: string) => Stream.make(new TextEncoder().encode(text))

export const SEGMENT_KEY_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    name: "GET /v1/projects/{p}/segments/{s}/keys",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async (t, n) => {
      const { key } = await freshSegment(t, n, "klists")
      return { method: "GET", path: `/v1/projects/p1/segments/${key}/keys`, call: use(SegmentKeys, (k) => k.lists("p1", key)) }
    }
  },
  {
    name: "GET /v1/projects/{p}/segments/{s}/keys/{list}",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async (t, n) => {
      const { key } = await freshSegment(t, n, "kread")
      return { method: "GET", path: `/v1/projects/p1/segments/${key}/keys/included`, call: use(SegmentKeys, (k) => k.read("p1", key, "included")) }
    }
  },
  {
    name: "PUT /v1/projects/{p}/segments/{s}/keys/{list}",
    kind: "management",
    needs: "write",
    success: 200,
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (t, n) => {
      const { key } = await freshSegment(t, n, "kput")
      return {
        method: "PUT",
        path: `/v1/projects/p1/segments/${key}/keys/included`,
        body: "user-1\nuser-2\n",
        headers: { "content-type": "text/plain" },
        call: use(SegmentKeys, (k) => k.replace("p1", key, "included", "lines", upload("user-1\nuser-2\n")))
      }
    }
  },
  {
    name: "PATCH /v1/projects/{p}/segments/{s}/keys/{list}",
    kind: "management",
    needs: "write",
    success: 200,
    boundServer: EVERY_ENVIRONMENT,
    prepare: async (t, n) => {
      const { key } = await freshSegment(t, n, "kpatch")
      const body = { add: ["user-3"], remove: ["user-1"] }
      return { method: "PATCH", path: `/v1/projects/p1/segments/${key}/keys/excluded`, body, call: use(SegmentKeys, (k) => k.change("p1", key, "excluded", body)) }
    }
  }
]
