import { insightsSuite } from "./HttpSuite.js"

insightsSuite("postgres")
