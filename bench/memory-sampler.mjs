// Loaded into a benchmarked server with `node --import <this file>` (bench/mixed-load.bench.ts with
// BENCH_MEMORY=1): every second, one JSON line to $FLAGPORT_BENCH_MEMORY_LOG with the time and the
// main thread's memory in MiB: RSS (the whole process, worker threads included), the V8 heap
// (used and reserved), external memory and the part of it in ArrayBuffers (Buffers).
import { appendFileSync } from "node:fs"

const file = process.env.FLAGPORT_BENCH_MEMORY_LOG
if (file !== undefined && file !== "") {
  const mib = (bytes) => Math.round(bytes / 1048576)
  setInterval(() => {
    const m = process.memoryUsage()
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), rss: mib(m.rss), heapUsed: mib(m.heapUsed), heapTotal: mib(m.heapTotal), external: mib(m.external), arrayBuffers: mib(m.arrayBuffers) })}\n`)
  }, 1000).unref()
}
