/**
 * A clock the test drives: timers run only when `advance` passes their time, and `random` is
 * fixed, so reconnection delays are exact.
 */
import type { Timers } from "../../adapters/client/Timers.js"

interface Pending {
  readonly at: number
  readonly run: () => void
  readonly id: number
}

export class DrivenTimers implements Timers {
  private time = 0
  private nextId = 0
  private pending: Array<Pending> = []

  constructor(private readonly fixedRandom = 0.5) {}

  readonly now = (): number => this.time
  readonly random = (): number => this.fixedRandom
  readonly schedule = (ms: number, run: () => void): (() => void) => {
    const id = this.nextId++
    this.pending.push({ at: this.time + ms, run, id })
    return () => {
      this.pending = this.pending.filter((p) => p.id !== id)
    }
  }

  /** Delays (from now) of the timers still pending. */
  get pendingDelays(): ReadonlyArray<number> {
    return this.pending.map((p) => p.at - this.time)
  }

  /** Moves the clock forward by `ms`, running every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.time + ms
    for (;;) {
      const due = this.pending.filter((p) => p.at <= until).sort((a, b) => a.at - b.at || a.id - b.id)[0]
      if (due === undefined) break
      this.pending = this.pending.filter((p) => p.id !== due.id)
      this.time = due.at
      due.run()
    }
    this.time = until
  }
}
