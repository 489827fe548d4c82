import { endpointSuite } from "./endpoints.js"

endpointSuite("postgres")
