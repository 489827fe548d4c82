import { spawnSync } from "node:child_process"

/**
 * The account the embedded PostgreSQL runs as. PostgreSQL refuses to run as root, so a root test
 * run starts it as another account; everyone else runs it as themselves (`undefined` here).
 */
export interface ServerAccount {
  readonly name: string
  readonly uid: number
  readonly gid: number
}

/** Accounts tried, in order, when running as root; `nobody` exists on practically every system. */
const candidates = ["postgres", "nobody"] as const

const idOf = (name: string, flag: "-u" | "-g"): number | undefined => {
  const result = spawnSync("id", [flag, name], { encoding: "utf8" })
  const id = Number.parseInt(result.stdout ?? "", 10)
  return result.status === 0 && Number.isInteger(id) ? id : undefined
}

const isRoot = (): boolean => typeof process.getuid === "function" && process.getuid() === 0

/** The account the server must run as, or `undefined` when it can run as the current user. */
export const serverAccount = (): ServerAccount | undefined => {
  if (!isRoot()) return undefined
  for (const name of candidates) {
    const uid = idOf(name, "-u")
    const gid = idOf(name, "-g")
    if (uid !== undefined && gid !== undefined && uid !== 0) return { name, uid, gid }
  }
  throw new Error(
    `PostgreSQL refuses to run as root, and none of the accounts ${candidates.join(", ")} exists to run it as: ` +
      "create one (e.g. `useradd postgres`) or run the tests as an ordinary user."
  )
}

/**
 * Fails with a plain explanation when `account` cannot use `path` (every directory above it must be
 * traversable by the account). Checked by asking `test` itself, run as the account, so the answer
 * is the kernel's (modes, ACLs, mount options) rather than a guess from mode bits.
 */
export const assertAccessible = (account: ServerAccount, path: string, access: "read" | "write" | "execute", hint: string): void => {
  const flag = access === "read" ? "-r" : access === "write" ? "-w" : "-x"
  const result = spawnSync("test", [flag, path], { uid: account.uid, gid: account.gid, cwd: "/" })
  if (result.status === 0) return
  const reason = result.error !== undefined ? ` (${result.error.message})` : ""
  throw new Error(
    `PostgreSQL runs as the user "${account.name}" (uid ${account.uid}) because it refuses to run as root, ` +
      `and that user cannot reach ${path} (\`test ${flag}\` fails as that user${reason}): every directory above it must be traversable by that user. ${hint}`
  )
}
