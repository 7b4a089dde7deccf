// Runs the TypeScript module named by TSX_ENTRY (a path) through tsx: the entry of `handoff-cost.ts`'s
// worker thread and child process, where tsx's loader flag does not reach on Node 20.
import { register } from 'tsx/esm/api'

register()
await import(process.env.TSX_ENTRY)
