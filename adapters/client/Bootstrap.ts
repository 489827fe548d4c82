/**
 * The bootstrap configuration: given inline, or read from a file. `node:fs` is imported only
 * when a path is given, through a specifier bundlers leave alone, so a browser or edge bundle of
 * the client never contains it (Node, Bun and Deno all provide `node:fs/promises`).
 */
import { checkConfig } from "./ConfigCheck.js"
import type { ConfigSnapshot } from "./Core.js"

const FS_MODULE = "node:fs/promises"

const readText = async (path: string): Promise<string> => {
  let fs: { readFile: (path: string, encoding: "utf8") => Promise<string> }
  try {
    fs = (await import(/* @vite-ignore */ /* webpackIgnore: true */ FS_MODULE)) as typeof fs
  } catch {
    throw new Error(`flagport: bootstrap ${JSON.stringify(path)} is a file path, and this runtime cannot read files; pass the configuration itself`)
  }
  try {
    return await fs.readFile(path, "utf8")
  } catch (error) {
    throw new Error(`flagport: cannot read the bootstrap file ${JSON.stringify(path)}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** The checked bootstrap configuration; rejects with a clear message when it cannot be used. */
export const loadBootstrap = async (bootstrap: ConfigSnapshot | string): Promise<ConfigSnapshot> => {
  let body: unknown = bootstrap
  if (typeof bootstrap === "string") {
    const text = await readText(bootstrap)
    try {
      body = JSON.parse(text)
    } catch {
      throw new Error(`flagport: the bootstrap file ${JSON.stringify(bootstrap)} is not JSON`)
    }
  }
  const checked = checkConfig(body)
  if (!checked.ok) throw new Error(`flagport: the bootstrap configuration is invalid: ${checked.problem}`)
  return checked.snapshot
}
