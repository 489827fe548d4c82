import * as StorageLayer from "../../adapters/app/Composition.js"
import { freshStorage } from "../fixtures/databases.js"
import { authorizationMatrix } from "./authorization.js"

authorizationMatrix("memory", () => StorageLayer.memoryStorage)
authorizationMatrix("sqlite", () => freshStorage("sqlite"))
