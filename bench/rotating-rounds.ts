/**
 * The side-by-side loop the HTTP benchmarks share: every contender on every scenario, round after
 * round, rotating who goes first so that a machine getting busier or calmer favours no one; each
 * run refused if any request failed. Each bench measures a run its own way (warm-up included) and
 * prints its own table from the means and worst p99s.
 */
import { cpus } from "node:os"
import type { Scenario } from "./bundled-children.js"

export interface Contender {
  readonly name: string
  readonly port: number
  readonly scenarios: ReadonlyArray<Scenario>
}

/** What the loop reads of an autocannon result. */
export interface Measured {
  readonly requests: { readonly average: number }
  readonly latency: { readonly p99: number }
  readonly errors: number
  readonly non2xx: number
}

export interface Rounds {
  /** Mean requests per second of `contender` on `scenario` over the rounds. */
  readonly meanRps: (scenario: Scenario, contender: Contender) => number
  /** The worst p99 (ms) of `contender` on `scenario` over the rounds. */
  readonly worstP99: (scenario: Scenario, contender: Contender) => number
}

export const rotatingRounds = async <C extends Contender>(
  contenders: ReadonlyArray<C>,
  rounds: number,
  measure: (contender: C, scenario: Scenario) => Promise<Measured>
): Promise<Rounds> => {
  const rps = new Map<string, Array<number>>()
  const p99 = new Map<string, Array<number>>()
  const idOf = (scenario: Scenario, contender: Contender) => `${scenario.name}|${contender.name}`
  const scenarios = contenders[0]!.scenarios.length
  for (let round = 0; round < rounds; round++) {
    for (let s = 0; s < scenarios; s++) {
      const order = contenders.map((_, i) => contenders[(i + round + s) % contenders.length]!)
      for (const contender of order) {
        const scenario = contender.scenarios[s]!
        const measured = await measure(contender, scenario)
        if (measured.errors > 0 || measured.non2xx > 0) {
          throw new Error(`${contender.name} ${scenario.name}: ${measured.errors} errors, ${measured.non2xx} non-2xx`)
        }
        const id = idOf(scenario, contender)
        rps.set(id, [...(rps.get(id) ?? []), measured.requests.average])
        p99.set(id, [...(p99.get(id) ?? []), measured.latency.p99])
        console.error(`round ${round + 1}: ${scenario.name}, ${contender.name}: ${Math.round(measured.requests.average)} req/s, p99 ${measured.latency.p99} ms`)
      }
    }
  }
  const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
  return {
    meanRps: (scenario, contender) => mean(rps.get(idOf(scenario, contender))!),
    worstP99: (scenario, contender) => Math.max(...p99.get(idOf(scenario, contender))!)
  }
}

/** The machine and the date, the first line of every bench's report. */
export const machineLine = (): string => `\nNode ${process.version}, ${cpus().length} x ${cpus()[0]?.model}, ${new Date().toISOString()}`
