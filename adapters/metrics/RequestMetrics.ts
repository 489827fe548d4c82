/**
 * `flagport_http_requests_total` and `flagport_http_request_duration_seconds`, by method, route
 * template (serving/RouteTemplate.ts: never a raw path) and status, for every request either lane
 * answers. Label values are bounded: methods outside the standard set count as `OTHER`, route
 * templates are a fixed set plus `unmatched`, statuses are 100..599.
 */
import { type HistogramCell as Cell, HistogramCell, histogramValues, LATENCY_BUCKETS, promMetric, type PromMetric, type PromValues } from "./Cells.js"

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

export class RequestMetrics {
  /** method -> route template -> status -> cell. Keys are values the request already has: no string is built. */
  private readonly byMethod = new Map<string, Map<string, Map<number, Cell>>>()

  /** One answered request, `seconds` from its start to its answer's end (or a stream's headers). */
  record(method: string, template: string, status: number, seconds: number): void {
    let byTemplate = this.byMethod.get(method)
    if (byTemplate === undefined) {
      const known = METHODS.has(method) ? method : "OTHER"
      byTemplate = this.byMethod.get(known)
      if (byTemplate === undefined) {
        byTemplate = new Map()
        this.byMethod.set(known, byTemplate)
      }
    }
    let byStatus = byTemplate.get(template)
    if (byStatus === undefined) {
      byStatus = new Map()
      byTemplate.set(template, byStatus)
    }
    let cell = byStatus.get(status)
    if (cell === undefined) {
      cell = new HistogramCell(LATENCY_BUCKETS)
      byStatus.set(status, cell)
    }
    cell.observe(seconds)
  }

  private each(f: (labels: Record<string, string>, cell: Cell) => void): void {
    for (const [method, byTemplate] of this.byMethod) {
      for (const [route, byStatus] of byTemplate) {
        for (const [status, cell] of byStatus) f({ method, route, status: String(status) }, cell)
      }
    }
  }

  metrics(): ReadonlyArray<PromMetric> {
    return [
      promMetric("flagport_http_requests_total", "counter", "HTTP requests answered, by method, route template and status.", () => {
        const out: Array<PromValues["values"][number]> = []
        this.each((labels, cell) => out.push({ labels, value: cell.count }))
        return out
      }),
      promMetric(
        "flagport_http_request_duration_seconds",
        "histogram",
        "Time to answer an HTTP request (a stream: until its headers), by method, route template and status.",
        () => {
          const out: Array<PromValues["values"][number]> = []
          this.each((labels, cell) => histogramValues("flagport_http_request_duration_seconds", LATENCY_BUCKETS, labels, cell, out))
          return out
        }
      )
    ]
  }
}
