import * as StorageLayer from "../../adapters/storage/StorageLayer.js"
import { freshStorage } from "../fixtures/databases.js"
import { authorizationMatrix } from "./authorization.js"

authorizationMatrix("memory", () => StorageLayer.memoryStorage)
authorizationMatrix("sqlite", () => freshStorage("sqlite"))
