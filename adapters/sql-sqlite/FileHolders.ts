/**
 * Which other processes have a file open, as `lsof` would say, read from Linux's /proc (each
 * process's open descriptors are links to their files). Only processes this user may inspect are
 * seen, and elsewhere than Linux nothing is: it serves a start-up warning, never a decision.
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs"

export interface Holder {
  readonly pid: number
  /** Its command line, spaces between the arguments (empty when unreadable). */
  readonly command: string
}

const commandOf = (pid: string): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((part) => part !== "").join(" ")
  } catch {
    return ""
  }
}

const holds = (pid: string, target: string): boolean => {
  let descriptors: Array<string>
  try {
    descriptors = readdirSync(`/proc/${pid}/fd`)
  } catch {
    return false // gone, or another user's
  }
  for (const fd of descriptors) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return true
    } catch {
      // closed meanwhile
    }
  }
  return false
}

/** The processes other than this one that have `filename` open (none when it cannot be told). */
export const otherHolders = (filename: string): ReadonlyArray<Holder> => {
  if (process.platform !== "linux") return []
  let target: string
  let pids: Array<string>
  try {
    target = realpathSync(filename)
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
  } catch {
    return []
  }
  return pids.filter((pid) => holds(pid, target)).map((pid) => ({ pid: Number(pid), command: commandOf(pid) }))
}
