import { Effect } from "effect"
import { Projects } from "../../src/services/projects/Projects.js"

/** Tests share one memory database per file: fresh names keep them apart. */
export const fresh = (): string => Math.random().toString(36).slice(2, 12)

export const PASSWORD = "correct horse battery staple"

export const givenProject = Effect.gen(function* () {
  const id = `p-${fresh()}`
  yield* (yield* Projects).create({ id, name: id })
  return id
})
