/** Calendar checks for imported timestamps: the protocol's, which the import's line schema uses too. */
export { calendarError, daysInMonth, isoTimestampError, parseIsoTimestamp } from '@pathlight/protocol'
