#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx's loader (no build step for self-hosters).
import { register } from 'tsx/esm/api'

register()
await import('../src/cli.ts')
