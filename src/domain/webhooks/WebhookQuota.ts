/**
 * What one project may take of the webhook machinery, so that no project's webhooks can crowd out
 * another's: how many webhooks it may have, and how the dispatcher's send slots are shared.
 */

/** Webhooks one project may have unless FLAGPORT_WEBHOOKS_PER_PROJECT says otherwise. */
export const DEFAULT_WEBHOOKS_PER_PROJECT = 20

/** The message of the 409 for a webhook over the cap. */
export const webhookCapMessage = (projectId: string, max: number) =>
  `Project '${projectId}' already has ${max} webhook(s), the most one project may have (FLAGPORT_WEBHOOKS_PER_PROJECT); delete one first`

/** The share of the send slots one project may hold when none is set: a quarter of them (64 of 256). */
export const defaultProjectConcurrency = (concurrency: number) => Math.max(1, Math.floor(concurrency / 4))

/**
 * How many deliveries to claim for each project with due work, given the free send slots and what
 * each project already has in flight: the slots are dealt one at a time, round-robin in the order
 * the projects come (the one waiting longest first), and no project goes past `projectLimit` in
 * flight. So a burst of one project takes at most its limit, and every project with work gets a
 * slot before any gets a second.
 */
export const claimPlan = (
  due: ReadonlyArray<string>,
  inFlight: (projectId: string) => number,
  free: number,
  projectLimit: number
): ReadonlyArray<readonly [projectId: string, count: number]> => {
  const room = new Map(due.map((projectId) => [projectId, Math.max(0, projectLimit - inFlight(projectId))] as const))
  const granted = new Map<string, number>()
  let left = free
  let dealt = true
  while (left > 0 && dealt) {
    dealt = false
    for (const projectId of due) {
      if (left === 0) break
      const got = granted.get(projectId) ?? 0
      if (got >= room.get(projectId)!) continue
      granted.set(projectId, got + 1)
      left--
      dealt = true
    }
  }
  return due.flatMap((projectId) => {
    const count = granted.get(projectId) ?? 0
    return count > 0 ? [[projectId, count] as const] : []
  })
}
