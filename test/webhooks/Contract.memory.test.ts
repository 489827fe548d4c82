import { layer } from "@effect/vitest"
import { Layer } from "effect"
import * as MemoryStorage from "../../adapters/memory/MemoryStorage.js"
import * as MemoryWebhooks from "../../adapters/memory/WebhookRepository.js"
import * as IdGenerator from "../../src/ports/IdGenerator.js"
import * as Core from "../../src/services/Core.js"
import * as Webhooks from "../../src/services/Webhooks.js"
import { webhookContract } from "../contract/WebhookRepository.contract.js"

const storage = Layer.provideMerge(
  Layer.merge(Core.layer, Webhooks.layer),
  Layer.mergeAll(Layer.provideMerge(MemoryWebhooks.layer, MemoryStorage.layer), IdGenerator.layer)
)

layer(storage, { excludeTestServices: true })("WebhookRepository contract: memory", (it) => webhookContract(it))
