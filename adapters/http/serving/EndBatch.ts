/**
 * Ends the lane's node answers together, at the end of the event-loop turn that computed them,
 * so a client woken by the first finds the rest waiting (write coalescing). Status and headers are
 * set by the caller at once; only `end` waits. Why, and what it measured: docs/guide/http.md and
 * bench/LOG.md, "Write coalescing".
 */
import type { ServerResponse } from "node:http"

// Two parallel arrays rather than an array of pairs: no allocation per answer on the hot path.
let responses: Array<ServerResponse> = []
let bodies: Array<string | Uint8Array | undefined> = []

const endAll = (): void => {
  const batch = responses
  const batchBodies = bodies
  responses = []
  bodies = []
  for (let i = 0; i < batch.length; i++) {
    try {
      batch[i]!.end(batchBodies[i]) // `end(undefined)` is `end()`
    } catch (error) {
      // One broken answer must not keep the others in the batch from leaving.
      batch[i]!.destroy(error as Error)
    }
  }
}

/** `res.end(body)` before this turn of the event loop is over, together with the others. */
export const endSoon = (res: ServerResponse, body?: string | Uint8Array): void => {
  if (responses.length === 0) setImmediate(endAll)
  responses.push(res)
  bodies.push(body)
}
