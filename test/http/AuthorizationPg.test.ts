import { freshStorage } from "../fixtures/databases.js"
import { authorizationMatrix } from "./authorization.js"

authorizationMatrix("postgres", () => freshStorage("postgres"))
