import { auditSuite } from "./audit.js"

auditSuite("postgres")
