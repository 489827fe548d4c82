/**
 * Copying targeting between environments (`POST .../environments/{to}/copy`): one flag or every
 * flag of the project, in one transaction on the server. The answer lists the flags whose
 * configuration in `to` changed; flags already equal are left alone.
 */
import { ifMatch, projectPath, request, seg } from "./api.js"
import type { List } from "./types.js"

export const copyTargeting = async (
  projectId: string,
  from: string,
  to: string,
  /** One flag, at the version the page loaded (a 412 if it changed since); absent: every flag. */
  flag?: { readonly key: string; readonly version: number }
): Promise<ReadonlyArray<string>> => {
  const path = projectPath(projectId, `/environments/${seg(to)}/copy`)
  const reply = flag === undefined
    ? await request<List<string>>("POST", path, { from })
    : await request<List<string>>("POST", path, { from, flags: [flag.key] }, ifMatch(flag.version))
  return reply.data
}
