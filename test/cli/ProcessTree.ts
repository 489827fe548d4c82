/**
 * The processes under a given one, read from /proc (Linux, where CI runs): what `npm start`
 * really started, which a test cannot see from the child handle it holds.
 */
import { readdirSync, readFileSync } from "node:fs"

export interface ProcessInfo {
  readonly pid: number
  readonly parent: number
  /** The command line, arguments joined by spaces. */
  readonly command: string
}

const read = (pid: number): ProcessInfo | undefined => {
  try {
    // The command name in /proc/PID/stat is in parentheses and may contain spaces: the fields after the last ")" are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim()
    return { pid, parent, command }
  } catch {
    return undefined // ended while we looked
  }
}

/** Every living process. */
export const processes = (): Array<ProcessInfo> =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => read(Number(name)) ?? [])

/** The descendants of `pid` (children, their children, ...). */
export const descendants = (pid: number): Array<ProcessInfo> => {
  const all = processes()
  const found: Array<ProcessInfo> = []
  let frontier = [pid]
  while (frontier.length > 0) {
    const children = all.filter((info) => frontier.includes(info.parent))
    found.push(...children)
    frontier = children.map((info) => info.pid)
  }
  return found
}

/** Whether `pid` is still a running process (a zombie counts as ended). */
export const isRunning = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z"
  } catch {
    return false
  }
}
