import { endpointSuite } from "./endpoints.js"

endpointSuite("sqlite")
