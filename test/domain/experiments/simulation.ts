/**
 * Simulated experiments for the statistics' property tests: a seeded generator (so a failure
 * replays from its seed), units arriving day by day, and a pause now and then so a long loop
 * never blocks vitest's worker (it reports to the main process and is killed after 60 s silent).
 */
import type { Moments } from "../../../src/domain/experiments/statistics/Moments.js"

/** mulberry32: a small seeded generator, uniform on [0, 1). */
export const seededRandom = (seed: number): (() => number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A standard normal draw by Box–Muller. */
export const normalDraw = (random: () => number): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())

/** Let the event loop run (timers, the worker's messages) before going on. */
export const breathe = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

/** Moments that grow as units arrive. */
export class Accumulator {
  n = 0
  sum = 0
  sumSquares = 0
  add(value: number): void {
    this.n += 1
    this.sum += value
    this.sumSquares += value * value
  }
  get moments(): Moments {
    return { n: this.n, sum: this.sum, sumSquares: this.sumSquares }
  }
}

/** A conversion experiment: each unit lands in control or treatment by a fair coin and converts with its arm's rate. */
export const conversionDay = (random: () => number, units: number, rates: { control: number; treatment: number }, control: Accumulator, treatment: Accumulator): void => {
  for (let i = 0; i < units; i++) {
    if (random() < 0.5) control.add(random() < rates.control ? 1 : 0)
    else treatment.add(random() < rates.treatment ? 1 : 0)
  }
}
