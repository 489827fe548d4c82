/**
 * An OpenFeature application with Flagport as its provider (`flagport/openfeature`): the
 * application codes against the vendor-neutral OpenFeature API; the provider evaluates in
 * process with Flagport's evaluator and keeps the configuration fresh.
 *
 *   FLAGPORT_URL=http://localhost:8080 FLAGPORT_KEY=srv_... npx tsx examples/openfeature-provider.ts
 *
 * (A global server key also needs FLAGPORT_PROJECT=default.) It prints the details of
 * `banner-color` for two users, then shuts OpenFeature down.
 */
import { OpenFeature } from "@openfeature/server-sdk"
import { pathToFileURL } from "node:url"
import { FlagportProvider } from "flagport/openfeature"

export const run = async (url: string, key: string, projectId: string | undefined): Promise<void> => {
  await OpenFeature.setProviderAndWait(new FlagportProvider({ url, key, environment: "production", ...(projectId === undefined ? {} : { projectId }) }))
  const client = OpenFeature.getClient()
  const pro = await client.getStringDetails("banner-color", "grey", { targetingKey: "user-1", plan: "pro" })
  const anonymous = await client.getStringDetails("banner-color", "grey", { plan: "free" })
  console.log(JSON.stringify({ pro, anonymous }))
  await OpenFeature.close()
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await run(process.env.FLAGPORT_URL ?? "http://localhost:8080", process.env.FLAGPORT_KEY ?? "", process.env.FLAGPORT_PROJECT)
}
