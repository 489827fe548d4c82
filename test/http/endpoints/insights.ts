/** Evaluation insights: reports from SDKs and the series of a flag. */
import { describe, it } from "@effect/vitest"
import { type Endpoints } from "./harness.js"

export const insights = ({ t, call, expectError }: Endpoints) =>
  describe("insights", () => {
    // Reports must name recent hours: the window is the last minute.
    const at = (offsetMs: number) => new Date(Math.floor(Date.now() / 1000) * 1000 + offsetMs).toISOString()
    const report = (extra: Record<string, unknown>) => ({
      environment: "development",
      from: at(-60_000),
      to: at(0),
      counts: [],
      ...extra
    })
    it("refuses bad reports and bad series windows with the envelope", async () => {
      const client = { key: t.keys.client }
      expectError("insights.report.count", await call("POST", "/v1/insights", report({ counts: [{ flagKey: "f", variationKey: "a", count: 0 }] }), client), 400, "invalid_request")
      expectError("insights.report.instant", await call("POST", "/v1/insights", report({ from: "yesterday" }), client), 400, "invalid_request")
      expectError("insights.report.window", await call("POST", "/v1/insights", report({ from: at(60_000) }), client), 400, "invalid_request")
      expectError("insights.report.old", await call("POST", "/v1/insights", report({ from: "2026-01-01T00:00:00Z" }), client), 400, "invalid_request")
      expectError("insights.report.rate", await call("POST", "/v1/insights", report({ counts: [{ flagKey: "f", variationKey: "a", count: 60_000_001 }] }), client), 400, "invalid_request")
      expectError("insights.report.environment", await call("POST", "/v1/insights", report({ environment: "nowhere" }), client), 404, "not_found")
      expectError("insights.series.environment", await call("GET", "/v1/projects/p1/flags/nope/insights"), 400, "invalid_request")
      expectError("insights.series.flag", await call("GET", "/v1/projects/p1/flags/nope/insights?environment=development"), 404, "not_found")
      expectError("insights.series.window", await call("GET", "/v1/projects/p1/flags/nope/insights?environment=development&from=2026-01-01T00:00:00Z&to=2026-11-01T00:00:00Z"), 400, "invalid_request")
      expectError("insights.flags.status", await call("GET", "/v1/projects/p1/flags?status=fresh"), 400, "invalid_request")
    })
  })
