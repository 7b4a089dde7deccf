/** Every response schema, from the files that hold them by area (for `types.ts` and the package index). */
export * from './behaviour-schemas.js'
export * from './experiment-schemas.js'
export * from './privacy-schemas.js'
export * from './report-schemas.js'
export * from './response-schemas.js'
export * from './traffic-schemas.js'
export * from './web-vital-schemas.js'
