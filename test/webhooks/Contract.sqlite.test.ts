import { layer } from "@effect/vitest"
import { webhookContract } from "../contract/WebhookRepository.contract.js"
import { storageEnv } from "./fixtures/Env.js"

layer(storageEnv("sqlite"), { excludeTestServices: true, timeout: "60 seconds" })(
  "WebhookRepository contract: sqlite",
  (it) => webhookContract(it)
)
