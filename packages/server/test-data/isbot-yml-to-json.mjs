// Converts isbot's fixtures/{browsers,crawlers}.yml (a YAML map of label -> list of user-agent strings) to
// JSON once, so the tests need no YAML dependency. Handles exactly that shape: `label:` / `"label":` keys at
// column 0 and `  - value` items, plain or double-quoted (no escapes occur in the files); fails otherwise.
// Usage: node isbot-yml-to-json.mjs /work/shared/data/user-agents/isbot-browsers.yml > isbot-browsers.json
import { readFileSync } from 'node:fs'

const unquote = (text) => (text.startsWith('"') ? JSON.parse(text) : text)
const out = {}
let label = null
for (const [index, line] of readFileSync(process.argv[2], 'utf8').split('\n').entries()) {
  if (line.trim() === '') continue
  const item = /^ {2}- (.+)$/.exec(line)
  const key = /^([^ #].*):$/.exec(line)
  if (item && label !== null) out[label].push(unquote(item[1]))
  else if (key) {
    label = unquote(key[1])
    out[label] ??= []
  } else throw new Error(`line ${index + 1}: unexpected YAML shape: ${line}`)
}
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`)
