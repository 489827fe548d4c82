/** The OFREP handlers: the raw request handed to the lane, which answers it whole (lane/Ofrep.ts). */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { FlagportApi } from "../Api.js"
import { viaLaneRaw } from "./ViaLane.js"

export const OfrepLive = HttpApiBuilder.group(FlagportApi, "OFREP", (handlers) =>
  handlers
    .handleRaw("evaluateFlag", ({ path, request }) => viaLaneRaw({ _tag: "ofrepFlag", rawFlagKey: encodeURIComponent(path.key) }, request))
    .handleRaw("evaluateFlags", ({ request }) => viaLaneRaw({ _tag: "ofrepBulk" }, request))
)
