// Loaded into a benchmarked server with `node --import <this file>` (bench/mixed-load.bench.ts with
// BENCH_MEMORY=1): every second, one JSON line to $FLAGPORT_BENCH_MEMORY_LOG with the time and the
// main thread's memory in MiB: RSS (the whole process, worker threads included), the V8 heap
// (used and reserved), external memory and the part of it in ArrayBuffers (Buffers), and each V8
// heap space's used and reserved size (`spaces`: new, old, code, large objects...), to tell which
// one grows. Each worker thread started from source text (the SQLite connections) writes its own
// line too (`thread`: its id), with its own isolate's heap and external memory: RSS is the sum of
// all of them and of what no isolate counts (native allocations, freed pages not yet returned).
import { appendFileSync } from "node:fs"
import { syncBuiltinESMExports } from "node:module"
import { PerformanceObserver, constants } from "node:perf_hooks"
import { getHeapSpaceStatistics } from "node:v8"
import threads from "node:worker_threads"

const file = process.env.FLAGPORT_BENCH_MEMORY_LOG
if (file !== undefined && file !== "") {
  const mib = (bytes) => Math.round(bytes / 1048576)
  // Garbage collections since the last line: how many, and milliseconds spent, young (scavenges) and full.
  const gc = { young: 0, youngMs: 0, full: 0, fullMs: 0 }
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const young = entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR
      gc[young ? "young" : "full"]++
      gc[young ? "youngMs" : "fullMs"] += entry.duration
    }
  }).observe({ entryTypes: ["gc"] })
  setInterval(() => {
    const m = process.memoryUsage()
    const spaces = {}
    for (const s of getHeapSpaceStatistics()) spaces[s.space_name.replace(/_space$/, "")] = [mib(s.space_used_size), mib(s.space_size)]
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), rss: mib(m.rss), heapUsed: mib(m.heapUsed), heapTotal: mib(m.heapTotal), external: mib(m.external), arrayBuffers: mib(m.arrayBuffers), spaces, gc: { ...gc, youngMs: Math.round(gc.youngMs), fullMs: Math.round(gc.fullMs) } })}\n`)
    gc.young = gc.youngMs = gc.full = gc.fullMs = 0
  }, 1000).unref()

  // The same sampler, as source text prepended to each worker's (they run `eval: true`, CommonJS).
  const inWorker = `;(() => {
    const { appendFileSync } = require("node:fs")
    const { threadId } = require("node:worker_threads")
    const mib = (bytes) => Math.round(bytes / 1048576)
    setInterval(() => {
      const m = process.memoryUsage()
      appendFileSync(${JSON.stringify(file)}, JSON.stringify({ at: Date.now(), thread: threadId, heapUsed: mib(m.heapUsed), heapTotal: mib(m.heapTotal), external: mib(m.external), arrayBuffers: mib(m.arrayBuffers) }) + "\\n")
    }, 1000).unref()
  })();\n`
  const Original = threads.Worker
  threads.Worker = class SampledWorker extends Original {
    constructor(source, options) {
      super(options?.eval === true && typeof source === "string" ? inWorker + source : source, options)
    }
  }
  syncBuiltinESMExports()
}

// FLAGPORT_BENCH_PROMOTED_PROFILE=FILE (with FLAGPORT_BENCH_PROMOTED_FROM_S / _TO_S, seconds after
// start): a sampling heap profile of what survived the young generation (was promoted) and was then
// collected by a full GC, written to FILE as a .heapprofile: the allocations that make the old
// space grow and shrink, by the code that allocated them.
const promotedFile = process.env.FLAGPORT_BENCH_PROMOTED_PROFILE
if (promotedFile !== undefined && promotedFile !== "") {
  const { Session } = await import("node:inspector")
  const { writeFileSync } = await import("node:fs")
  const session = new Session()
  session.connect()
  const from = Number(process.env.FLAGPORT_BENCH_PROMOTED_FROM_S ?? 30) * 1000
  const to = Number(process.env.FLAGPORT_BENCH_PROMOTED_TO_S ?? 85) * 1000
  setTimeout(() => {
    session.post("HeapProfiler.enable", () =>
      session.post("HeapProfiler.startSampling", { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false }, (error) => {
        if (error) process.stderr.write(`promoted profile: ${error.message}\n`)
      })
    )
    setTimeout(() => {
      session.post("HeapProfiler.stopSampling", (error, result) => {
        if (error) process.stderr.write(`promoted profile: ${error.message}\n`)
        else writeFileSync(promotedFile, JSON.stringify(result.profile))
      })
    }, to - from).unref()
  }, from).unref()
}
