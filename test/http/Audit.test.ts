import { auditSuite } from "./audit.js"

auditSuite("sqlite")
