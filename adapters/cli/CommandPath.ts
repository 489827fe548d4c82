/**
 * @effect/cli prints a subcommand's usage as `$ create ...`, without the commands above it. The
 * help a user reads should show what to type: `$ flagport keys create ...`. The path comes from
 * the command line itself (the words before the first option).
 */

const ANSI = "(?:\\u001b\\[[0-9;]*m)*"
const USAGE_LINE = new RegExp(`^(${ANSI}\\$ ${ANSI})([a-z][a-z-]*)`, "m")

/** Rewrites the usage line of a help text for `args` (argv without node and script). */
export const withCommandPath = (text: string, name: string, args: ReadonlyArray<string>): string => {
  const words: Array<string> = []
  for (const arg of args) {
    if (arg.startsWith("-")) break
    words.push(arg)
  }
  return text.replace(USAGE_LINE, (line, prompt: string, command: string) => {
    const at = words.lastIndexOf(command)
    return at === -1 ? line : `${prompt}${[name, ...words.slice(0, at + 1)].join(" ")}`
  })
}
