/**
 * Ends the lane's node answers together, at the end of the event-loop turn that computed them.
 *
 * Why: under load, one turn of Node's loop reads many requests (one per ready socket), and the
 * lane answers each synchronously. Ended one by one, the answers leave tens of microseconds apart,
 * and a client process that goes back to sleep in between is woken once per answer. Waking a
 * sleeping process on another CPU is paid by the writer, inside `write`: on a virtual machine an
 * inter-processor interrupt, measured at 11 to 15% of the server's CPU (docs/benchmarks.md).
 * Ended back to back (`setImmediate` runs right after the loop's poll phase), the first answer wakes
 * the client and the others find it awake. Netty's FlushConsolidationHandler does the same for
 * the same reason.
 *
 * At light load a turn holds one request, and its answer leaves in that same turn. The status and
 * headers are set at once by the caller; only `end` waits.
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
