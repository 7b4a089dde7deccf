/** The body of `POST /api/track`: declared in `@pathlight/protocol`, shared with the clients. */
export { parsePropertiesObject, type TrackPayload, trackPayloadSchema } from '@pathlight/protocol'
