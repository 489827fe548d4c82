/**
 * An application using the Flagport SDK (`flagport/client`): it downloads the environment's
 * configuration once, evaluates in process (no request per evaluation) and stays fresh through
 * the server's stream, or by polling where there is none.
 *
 *   npx flagport seed                       # prints SERVER_KEY / CLIENT_KEY
 *   npx flagport serve &                    # http://localhost:8080
 *   FLAGPORT_URL=http://localhost:8080 FLAGPORT_KEY=cli_... npx tsx examples/sdk-client.ts
 *
 * It prints what `banner-color` serves to two users (the fallback while the flag does not
 * exist), then, with WATCH=1, every change until interrupted.
 */
import { pathToFileURL } from "node:url"
import { createClient } from "flagport/client"

export const run = async (url: string, key: string, watch: boolean): Promise<void> => {
  const flags = await createClient({ url, key, environment: "production" })
  const show = () => {
    const results = {
      status: flags.status,
      pro: flags.string("banner-color", { key: "user-1", attributes: { plan: "pro" } }, "grey"),
      free: flags.detail("banner-color", { key: "user-2", attributes: { plan: "free" } }, "grey")
    }
    console.log(JSON.stringify(results))
  }
  show()
  if (!watch) return flags.close()
  flags.on("change", (keys) => {
    console.log(`changed: ${keys.join(", ")}`)
    show()
  })
  await new Promise<void>((resolve) => process.once("SIGTERM", resolve).once("SIGINT", resolve))
  await flags.close()
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await run(process.env.FLAGPORT_URL ?? "http://localhost:8080", process.env.FLAGPORT_KEY ?? "", process.env.WATCH === "1")
}
