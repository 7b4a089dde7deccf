/**
 * Minimal type declarations for `ua-parser-js` 1.x, which ships no TypeScript types of its own.
 *
 * Only the members `user-agent.ts` uses are declared. The package is CommonJS and sets
 * `exports.UAParser`, which Node's ESM loader exposes as a named export. Every field is `undefined`
 * when the parser does not recognise it; strings longer than 500 characters are truncated by the parser.
 */
declare module 'ua-parser-js' {
  /** Browser name (e.g. 'Chrome', 'Mobile Safari'), full version ('120.0.6099.216') and major ('120'). */
  export interface UAParserBrowser {
    name: string | undefined
    version: string | undefined
    major: string | undefined
  }

  /** Operating system name (e.g. 'Windows', 'Mac OS', 'iOS', 'Android') and version ('10.15.7'). */
  export interface UAParserOS {
    name: string | undefined
    version: string | undefined
  }

  /**
   * Device vendor, model and type. 1.x types: 'console' | 'mobile' | 'tablet' | 'smarttv' | 'wearable' |
   * 'embedded'; `undefined` for desktops and unknown devices.
   */
  export interface UAParserDevice {
    vendor: string | undefined
    model: string | undefined
    type: string | undefined
  }

  /** Stateful parser; `setUA` replaces the string the getters read. */
  export class UAParser {
    constructor(ua?: string)
    getUA(): string
    setUA(ua: string): this
    getBrowser(): UAParserBrowser
    getOS(): UAParserOS
    getDevice(): UAParserDevice
  }
}
