import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openChdbStore } from './chdb-store.js'
import { eventsStoreContract } from './events-store.contract.js'

eventsStoreContract('chDB', () => openChdbStore(fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-chdb-'))))
