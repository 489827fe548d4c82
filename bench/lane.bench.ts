/**
 * The evaluation lane's own cost, in process (run by hand): `npx tsx bench/lane.bench.ts
 * [evaluate|ofrep|ofrep-304]`. No sockets, no HTTP parser: `EvaluationLane.answer` for the request the HTTP
 * benchmark sends (bench/http-fixture.ts: 50 W2 flags, one context), over memory storage with
 * counting on, timed in 5 rounds of 50,000 answers. It separates what the lane costs from what
 * node:http and the kernel cost per request, which bench/http.bench.ts measures together.
 * Compare revisions side by side with it; its absolute figures move with the way it is run
 * (bundled by esbuild it measured about 2 µs more per `evaluate` answer than through tsx, on the
 * machine of docs/operations/benchmarks.md, although the bundled server is the faster one over HTTP).
 */
import { Effect, Layer } from "effect"
import * as EvaluationLaneLayer from "../adapters/http/lane/EvaluationLaneLayer.js"
import { routeOf } from "../adapters/http/lane/Routes.js"
import { EvaluationLaneService, type LaneRequest, type LaneRoute } from "../adapters/http/shared/EvaluationLaneService.js"
import * as StorageLayer from "../adapters/app/Composition.js"
import * as Authentication from "../adapters/http/shared/Authentication.js"
import { CONTEXT, seedW2Project } from "./http-fixture.js"

const mode = process.argv[2] ?? "evaluate"
if (!["evaluate", "ofrep", "ofrep-304"].includes(mode)) throw new Error(`unknown mode ${mode}`)

const services = StorageLayer.servicesFrom(StorageLayer.fromDatabaseUrl("memory:"))
const { clientKey, lane } = await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      return { clientKey: yield* seedW2Project, lane: yield* EvaluationLaneService }
    }).pipe(Effect.provide(EvaluationLaneLayer.layer().pipe(Layer.provideMerge(Authentication.layer()), Layer.provideMerge(services))))
  )
)

const { key: targetingKey, attributes } = CONTEXT
const body = Buffer.from(
  JSON.stringify(mode === "evaluate" ? { environment: "production", context: CONTEXT } : { context: { targetingKey, ...attributes } })
)
const headers: Record<string, string> = {
  authorization: `Bearer ${clientKey}`,
  "content-type": "application/json",
  "content-length": String(body.length),
  "flagport-environment": "production",
  host: "127.0.0.1"
}
const route: LaneRoute = routeOf("POST", mode === "evaluate" ? "/v1/evaluate" : "/ofrep/v1/evaluate/flags")!
const request: LaneRequest = { query: "", header: (name) => headers[name], body: () => Promise.resolve(body) }

const answer = async (expected: number) => {
  const response = await lane.answer(route, request)
  if (response.status !== expected) throw new Error(`${response.status} ${String(response.body)}`)
  return response
}
const first = await answer(200)
if (mode === "ofrep-304") headers["if-none-match"] = first.headers["etag"]!
const expected = mode === "ofrep-304" ? 304 : 200

const N = 50_000
console.log(`Node ${process.version}, ${mode}, ${N} answers per round`)
for (let round = 0; round < 5; round++) {
  const start = process.hrtime.bigint()
  for (let i = 0; i < N; i++) await answer(expected)
  console.log(`round ${round + 1}: ${(Number(process.hrtime.bigint() - start) / N / 1000).toFixed(2)} µs per answer`)
}
lane.closeStreams()
process.exit(0)
