#!/usr/bin/env node
// Whether dist/ was built from the sources as they are: `npm pack` (prepack) and `npm test` (pretest:
// the examples and package tests import the build) build only when not.
//
//   node scripts/build-stamp.mjs write   # after a build (npm run build does it): records the sources' fingerprint
//   node scripts/build-stamp.mjs check   # exit 0 when dist/ holds a finished build of these very sources
//
// The fingerprint hashes the content (not the times) of every input of the build: src/, adapters/,
// ui/, the build and compiler settings, package.json and the lock file. The stamp is written last,
// so an interrupted build leaves none, and `tsup` (clean) removes it first.
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const stamp = join(root, "dist", ".build-stamp")
const DIRECTORIES = ["src", "adapters", "ui"]
const FILES = ["tsup.config.ts", "tsconfig.json", "package.json", "package-lock.json"]
// Outputs and packages inside the inputs' folders are not inputs.
const SKIP = new Set(["node_modules", "dist"])

export const fingerprint = (base = root) => {
  const hash = createHash("sha256")
  const add = (path) => hash.update(`${relative(base, path)}\0`).update(readFileSync(path)).update("\0")
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (SKIP.has(entry.name)) continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) add(path)
    }
  }
  for (const dir of DIRECTORIES) if (existsSync(join(base, dir))) walk(join(base, dir))
  for (const file of FILES) if (existsSync(join(base, file))) add(join(base, file))
  return hash.digest("hex")
}

const command = process.argv[2]
if (command === "write") {
  writeFileSync(stamp, `${fingerprint()}\n`)
} else if (command === "check") {
  const current = existsSync(stamp) && readFileSync(stamp, "utf8").trim() === fingerprint()
  process.stderr.write(current ? "dist/ was built from these sources: using it as it is\n" : "dist/ is missing or older than the sources: building\n")
  process.exit(current ? 0 : 1)
} else if (command !== undefined) {
  process.stderr.write("usage: node scripts/build-stamp.mjs write|check\n")
  process.exit(2)
}
