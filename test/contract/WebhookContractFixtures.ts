import { Effect } from "effect"
import { WebhookRepository } from "../../src/ports/WebhookRepository.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Projects } from "../../src/services/projects/Projects.js"

/** What the webhook contract suites share: a fresh project each, and times relative to now or to long ago. */

/** A project of its own with a production environment: tests share one database per backend. */
export const newProject = Effect.gen(function* () {
  const id = `wh-${Math.random().toString(36).slice(2, 12)}`
  yield* (yield* Projects).create({ id, name: id })
  yield* (yield* Environments).create(id, { key: "production", name: "Production" })
  return id
})

/** An ISO time `ms` from the real now (deliveries are due at their creation time). */
export const at = (ms: number) => new Date(Date.now() + ms).toISOString()
export const SOON = 1_000
export const MINUTE = 60_000

/** Times long before any other test's (which use the real now), so pruning them touches no one else. */
export const ANCIENT = Date.parse("2001-01-01T00:00:00.000Z")
export const DAY = 86_400_000
export const ancient = (ms: number) => new Date(ANCIENT + ms).toISOString()

/** Prunes everything finished before `before`, batch after batch; returns the total. */
export const pruneAll = (before: string) =>
  Effect.gen(function* () {
    const repo = yield* WebhookRepository
    let total = 0
    for (;;) {
      const n = yield* repo.pruneFinished(before, 1000)
      total += n
      if (n < 1000) return total
    }
  })
