/**
 * Which server process a PostgreSQL backend serves, for tests that kill a process in the middle of
 * a transaction: the backend's client port (pg_stat_activity) is the local port of one TCP socket
 * (/proc/net/tcp, tcp6), and that socket's inode is an open file of exactly one process (/proc/PID/fd).
 * Linux only, as the process tests are.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs"

/** The inodes of the local TCP sockets bound to `port` (IPv4 and IPv6 tables). */
const socketInodes = (port: number): Set<string> => {
  const inodes = new Set<string>()
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = ""
    try {
      text = readFileSync(table, "utf8")
    } catch {
      continue
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (fields.length < 10) continue
      const local = fields[1]!
      const localPort = Number.parseInt(local.slice(local.lastIndexOf(":") + 1), 16)
      if (localPort === port) inodes.add(fields[9]!)
    }
  }
  return inodes
}

/** Of `pids`, the process holding the TCP socket whose local port is `clientPort`, or undefined. */
export const processOfClientPort = (clientPort: number, pids: ReadonlyArray<number>): number | undefined => {
  const inodes = socketInodes(clientPort)
  for (const pid of pids) {
    let fds: Array<string> = []
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
        if (match !== null && inodes.has(match[1]!)) return pid
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined
}
