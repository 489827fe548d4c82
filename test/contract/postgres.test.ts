import { Layer } from "effect"
import { freshSqlStorage } from "../fixtures/databases.js"
import { allContracts } from "./All.js"
import { runContracts, withWebhooks } from "./Backend.js"
import { sqlRawDump } from "./SqlRawDump.js"

runContracts({ name: "postgres", layer: withWebhooks(Layer.provideMerge(sqlRawDump, freshSqlStorage("postgres"))) }, allContracts)
