import { deliverySuite } from "./DeliverySuite.js"

deliverySuite("sqlite")
