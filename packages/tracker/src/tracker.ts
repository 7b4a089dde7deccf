/**
 * Entry of the core script (`/api/script.js`), installed as
 * `<script defer src="https://HOST/api/script.js" data-site-id="42"></script>`.
 */
import { startTracker } from './start-tracker.js'

const script = (document.currentScript ||
  document.querySelector('script[data-site-id]')) as HTMLScriptElement | null
if (script) startTracker(script)
