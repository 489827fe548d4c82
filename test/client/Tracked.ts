/**
 * Clients and servers a client test opens, closed after each test (newest first), and the
 * two-variation boolean shape those tests build flags from.
 */
import { afterEach } from "@effect/vitest"

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

/** Closes `a` after the current test. */
export const track = <A extends { close: () => Promise<unknown> }>(a: A): A => {
  cleanups.push(() => a.close())
  return a
}

export const onOff = [
  { key: "on", value: true },
  { key: "off", value: false }
]
