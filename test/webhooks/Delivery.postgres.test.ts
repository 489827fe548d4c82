import { deliverySuite } from "./DeliverySuite.js"

deliverySuite("postgres")
