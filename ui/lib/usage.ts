/** Which flags use a segment: any rule, in any environment, with a segment condition naming it (inside an "any of these" block too). */
import { isSegmentOperator } from "../../src/domain/conditions/OperatorTable.js"
import { plainConditions } from "./groups.js"
import type { Flag } from "./types.js"

export const flagsUsing = (flags: ReadonlyArray<Flag>): ReadonlyMap<string, ReadonlyArray<string>> => {
  const uses = new Map<string, Set<string>>()
  for (const flag of flags) {
    for (const config of flag.configs) {
      for (const rule of config.rules) {
        for (const c of plainConditions(rule.conditions)) {
          if (!isSegmentOperator(c.operator)) continue
          for (const key of c.values) {
            if (typeof key !== "string") continue
            const set = uses.get(key) ?? new Set<string>()
            set.add(flag.key)
            uses.set(key, set)
          }
        }
      }
    }
  }
  return new Map([...uses].map(([k, v]) => [k, [...v].sort()]))
}
