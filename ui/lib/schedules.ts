/**
 * Scheduled changes as the flag page handles them: the request that schedules the targeting being
 * edited, the API's problems placed back on the editor's fields, when to look again for a pending
 * schedule's outcome, and how a schedule reads in the list.
 */
import { fromUtcInput } from "./format.js"
import type { Problems } from "./problems.js"
import type { Prerequisite, Schedule } from "./types.js"

/**
 * The targeting PUT body the editor would send, scheduled for `at` (a UTC `datetime-local` value).
 * Prerequisites go along only when there are some: a server whose schedules do not take them then
 * refuses the schedule (400, shown on the form) rather than apply it later without them.
 */
export const scheduleBody = (
  at: string,
  targeting: { readonly environment: string; readonly prerequisites?: ReadonlyArray<Prerequisite> } & Schedule["targeting"]
) => {
  const { environment, prerequisites, ...rest } = targeting
  return { environment, at: fromUtcInput(at), targeting: prerequisites === undefined || prerequisites.length === 0 ? rest : { ...rest, prerequisites } }
}

/**
 * The API names the targeting's problems under `targeting.` (`targeting.rules[0].variationKey`);
 * the editor's fields use the PUT's paths (`rules[0].variationKey`), so the prefix is dropped.
 */
export const onEditorPaths = (problems: Problems): Problems => ({
  ...problems,
  details: problems.details.map((d) => (d.path.startsWith("targeting.") ? { ...d, path: d.path.slice("targeting.".length) } : d))
})

const SECOND = 1_000
/** Longest wait before looking again: a schedule made elsewhere, or a clock that differs, shows within it. */
const LONGEST_WAIT = 30 * SECOND

/**
 * How long to wait before reading the schedules again to learn what became of a pending one
 * (null: none is pending). Just after the earliest one is due (the server applies it within 2 s),
 * then every second while it is late, every 10 s once it is very late (no scheduler running?).
 */
export const nextCheckIn = (schedules: ReadonlyArray<Schedule>, now: number): number | null => {
  const due = schedules.filter((s) => s.status === "pending").map((s) => Date.parse(s.at))
  if (due.length === 0) return null
  const wait = Math.min(...due) - now
  if (wait >= 0) return Math.min(wait + SECOND, LONGEST_WAIT)
  return -wait < LONGEST_WAIT ? SECOND : 10 * SECOND
}

/** The change in a few words: `on, default beta, off off, 2 rules`. */
export const summary = (t: Schedule["targeting"]): string =>
  `${t.enabled ? "on" : "off"}, default ${t.defaultVariationKey}, off ${t.offVariationKey}, ${t.rules.length} ${t.rules.length === 1 ? "rule" : "rules"}`
