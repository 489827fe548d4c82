import { insightsSuite } from "./HttpSuite.js"

insightsSuite("sqlite")
