/**
 * Where the change stream plugs into OFREP: a lane built with `eventStreams` answers the bulk
 * route with them (after `flags` and `metadata`), given the caller, the scope the policy allowed
 * and the request (for its origin). Without it the body has no `eventStreams`, as the server
 * answers today. The lane here is the real one over a snapshot source in memory.
 */
import { describe, expect, it } from "@effect/vitest"
import type { ApiKey } from "../../src/domain/auth/ApiKey.js"
import type { Principal } from "../../src/domain/auth/ApiKey.js"
import type { EvaluationScope } from "../../src/domain/auth/Policy.js"
import { EvaluationLane } from "../../adapters/http/lane/EvaluationLane.js"
import type { EventStreamsOf } from "../../adapters/http/lane/Ofrep.js"
import { SnapshotCache } from "../../adapters/http/lane/SnapshotCache.js"
import { Authenticator } from "../../adapters/http/shared/Authentication.js"
import { Cors } from "../../adapters/http/shared/Cors.js"
import type { LaneRequest } from "../../adapters/http/shared/EvaluationLaneService.js"
import { KeyCache } from "../../adapters/http/shared/KeyCache.js"

const TOKEN = "cli_event-streams-test"
const key = { id: "k1", type: "client", projectId: "p1", environment: "production" } as unknown as ApiKey

const laneWith = (eventStreams?: EventStreamsOf) =>
  new EvaluationLane({
    auth: new Authenticator(new KeyCache(async (token) => (token === TOKEN ? key : null)), () => {}),
    cors: new Cors("*"),
    snapshots: new SnapshotCache({
      revision: async () => 1,
      environments: async () => ["production"],
      snapshot: async () => ({
        revision: 1,
        snapshot: {
          environment: "production",
          flags: [{ key: "f", type: "boolean", enabled: false, variations: [{ key: "on", value: true }, { key: "off", value: false }], defaultVariationKey: "on", offVariationKey: "off", rules: [], version: 5 }],
          segments: []
        }
      })
    }),
    ...(eventStreams === undefined ? {} : { eventStreams })
  })

const bulkRequest = (headers: Record<string, string>): LaneRequest => ({
  query: "",
  header: (name) => ({ authorization: `Bearer ${TOKEN}`, "content-type": "application/json", "content-length": "2", ...headers })[name],
  body: async () => new TextEncoder().encode("{}")
})

describe("the bulk route's eventStreams", () => {
  it("come from the lane's eventStreams, called with the caller, its scope and the request", async () => {
    const calls: Array<{ principal: Principal; scope: EvaluationScope; host: string | undefined }> = []
    const lane = laneWith((principal, scope, request) => {
      calls.push({ principal, scope, host: request.header("host") })
      return [{ type: "sse", url: `https://${request.header("host")}/v1/stream?token=t` }]
    })
    const response = await lane.answer({ _tag: "ofrepBulk" }, bulkRequest({ host: "flags.example.com" }))
    expect(response.status).toBe(200)
    expect(JSON.parse(response.body as string)).toEqual({
      flags: [{ key: "f", value: false, reason: "DISABLED", variant: "off", metadata: { version: 5 } }],
      metadata: { version: expect.stringMatching(/^W\//) },
      eventStreams: [{ type: "sse", url: "https://flags.example.com/v1/stream?token=t" }]
    })
    expect(calls).toEqual([{ principal: { _tag: "Client", keyId: "k1", projectId: "p1", environment: "production" }, scope: { projectId: "p1", environment: "production" }, host: "flags.example.com" }])
  })
  it("are absent without one", async () => {
    const response = await laneWith().answer({ _tag: "ofrepBulk" }, bulkRequest({}))
    expect(Object.keys(JSON.parse(response.body as string))).toEqual(["flags", "metadata"])
  })
})
