/**
 * A machine gauge for benchmarks: a fixed piece of plain JavaScript that uses no Flagport code.
 *
 * Why: this machine is a shared 2-vCPU guest, and other tenants change its speed over time. Measured
 * here, every throughput-bound loop, ours or not, runs about 1.5 to 2 times slower for stretches of
 * seconds to minutes, and that can happen in the middle of a process (bench/LOG.md,
 * Evaluator). Timing the gauge in every round, next to the workloads, tells which rounds ran at
 * the machine's full speed, so figures from different moments can be compared fairly.
 *
 * The gauge mixes characters of 64 fixed strings with integer multiplies and rotations: work of the
 * same kind as an evaluation (string reads, integer arithmetic), with no allocation.
 */
const STRINGS = Array.from({ length: 64 }, (_, i) => `gauge-reference-string-${(i * 7919) % 10007}`)

const mix = (seed: number, s: string): number => {
  let h = seed
  for (let i = 0; i + 4 <= s.length; i += 4) {
    let k = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 8) | (s.charCodeAt(i + 2) << 16) | (s.charCodeAt(i + 3) << 24)
    k = Math.imul(k, 0xcc9e2d51)
    k = (k << 15) | (k >>> 17)
    h ^= Math.imul(k, 0x1b873593)
    h = (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0
  }
  return h
}

/** Runs the gauge `ops` times; returns a value that depends on every step (so none is optimised away). */
export const runGauge = (ops: number): number => {
  let h = 0
  for (let i = 0; i < ops; i++) h = mix(h, STRINGS[i & 63]!)
  return h
}
