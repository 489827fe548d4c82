/**
 * Every way the project cites its docs leads somewhere: the relative links of the Markdown pages
 * (README.md, docs/, the packages' and benchmarks' READMEs) name files that exist and, with a
 * `#fragment`, a heading of that page (as GitHub makes its anchors); and every `docs/...` path
 * written in code, comments, help texts, messages and tests names a file that exists (its
 * fragment too, when it has one). A page moved or a heading renamed fails here, not for a reader.
 * The source files the README and docs/ name exist, and they cite docs, not issue numbers.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT } from "../cli/Process.js"

const SKIPPED = new Set(["node_modules", "dist", ".git", "data", "coverage"])

const filesUnder = (dir: string, keep: (path: string) => boolean): Array<string> =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir === "." ? entry.name : `${dir}/${entry.name}`
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : filesUnder(path, keep)
    return keep(path) ? [path] : []
  })

const markdownPages = filesUnder(".", (path) => path.endsWith(".md"))
const sources = ["src", "adapters", "ui", "test", "bench", "bin", "scripts", "examples", "lint"].flatMap((dir) =>
  filesUnder(dir, (path) => /\.(ts|tsx|mjs|js|cjs)$/.test(path))
)

/** The text outside fenced code blocks (a `# comment` in a shell block is no heading, a `](x)` in code no link). */
const prose = (markdown: string): string => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1\s*$/gm, "")

/** GitHub's anchor for a heading: its text lower-cased, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-")

const anchorsCache = new Map<string, ReadonlySet<string>>()
const anchorsOf = (page: string): ReadonlySet<string> => {
  const cached = anchorsCache.get(page)
  if (cached !== undefined) return cached
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const [, heading] of prose(readFileSync(join(ROOT, page), "utf8")).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(heading!)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  anchorsCache.set(page, anchors)
  return anchors
}

/** What is wrong with a reference to `path#fragment` (relative to the repository), or undefined. */
const problemWith = (path: string, fragment: string | undefined): string | undefined => {
  if (!existsSync(join(ROOT, path))) return `${path} does not exist`
  if (fragment === undefined || fragment === "") return undefined
  if (!path.endsWith(".md") || statSync(join(ROOT, path)).isDirectory()) return undefined
  return anchorsOf(path).has(decodeURIComponent(fragment)) ? undefined : `${path} has no heading #${fragment}`
}

describe("the docs' links", () => {
  it("finds the pages it checks", () => {
    expect(markdownPages).toContain("README.md")
    expect(markdownPages).toContain("docs/README.md")
    expect(markdownPages.filter((page) => page.startsWith("docs/")).length).toBeGreaterThan(15)
  })

  it.each(markdownPages)("%s: every relative link resolves, with its heading", (page) => {
    const text = prose(readFileSync(join(ROOT, page), "utf8")).replace(/`[^`\n]*`/g, "")
    const problems: Array<string> = []
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target!) || target!.startsWith("/")) continue
      const [file, fragment] = target!.split("#", 2) as [string, string | undefined]
      const path = file === "" ? page : relative(ROOT, join(ROOT, dirname(page), file))
      const problem = problemWith(path, fragment)
      if (problem !== undefined) problems.push(`${target}: ${problem}`)
    }
    expect(problems).toEqual([])
  })
})

describe("docs paths cited in the code", () => {
  it("finds the files it checks", () => {
    expect(sources.length).toBeGreaterThan(200)
  })

  it("every docs/... (and bench/*.md) path named in code, comments, messages and tests exists", () => {
    const problems: Array<string> = []
    for (const source of sources) {
      const text = readFileSync(join(ROOT, source), "utf8")
      for (const [, path, fragment] of text.matchAll(/(?<![\w./-])((?:docs\/[\w./-]*|bench\/[\w./-]*)\.(?:md|json|png))(?:#([\w-]+))?/g)) {
        const problem = problemWith(path!, fragment)
        if (problem !== undefined) problems.push(`${source}: ${problem}`)
      }
    }
    expect(problems).toEqual([])
  })
})

describe("files the docs name", () => {
  const pages = markdownPages.filter((page) => page === "README.md" || page.startsWith("docs/"))
  const TOP = new Set(["src", "adapters", "test", "bench", "ui", "scripts", "examples", "bin", "docs", "lint"])
  const tracked = [...TOP].flatMap((dir) => filesUnder(dir, () => true))

  it.each(pages)("%s: every source path it writes (`dir/File.ts`) names a file that exists", (page) => {
    const missing: Array<string> = []
    for (const [, path] of readFileSync(join(ROOT, page), "utf8").matchAll(/`([\w.-]+(?:\/[\w.-]+)+\.(?:ts|tsx|mts|js|mjs|cjs|json|sql|css))(?:#\w+)?`/g)) {
      const top = path!.split("/")[0]!
      // dist/ is what a build writes; a path from the repository's root must exist as written, a
      // shorter one (`lane/Routes.ts`, inside a room the text names) must end some file's path.
      if (top === "dist") continue
      const found = TOP.has(top) ? existsSync(join(ROOT, path!)) : tracked.some((file) => file.endsWith(`/${path}`))
      if (!found) missing.push(path!)
    }
    expect(missing).toEqual([])
  })
})

describe("the docs cite docs", () => {
  const pages = markdownPages.filter((page) => page === "README.md" || page.startsWith("docs/"))

  it.each(pages)("%s names no issue numbers (a reader has only the docs)", (page) => {
    const text = prose(readFileSync(join(ROOT, page), "utf8")).replace(/`[^`\n]*`/g, "")
    const cited = [...text.matchAll(/\bissues? (?:#?\d+)\b|(?<![\w&/])#\d+\b/gi)].map((match) => match[0])
    expect(cited).toEqual([])
  })
})
