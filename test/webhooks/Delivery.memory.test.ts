import { deliverySuite } from "./DeliverySuite.js"

deliverySuite("memory")
