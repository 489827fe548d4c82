import { layer } from "@effect/vitest"
import { webhookContract } from "../contract/WebhookRepository.contract.js"
import { storageEnv } from "./fixtures/Env.js"

layer(storageEnv("postgres"), { excludeTestServices: true, timeout: "60 seconds" })(
  "WebhookRepository contract: postgres",
  (it) => webhookContract(it)
)
