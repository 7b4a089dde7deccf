/**
 * What the webhook form says about its URL. The server takes http:// and https:// URLs whose host is a
 * public address; a private, loopback or link-local one (a service on the operator's own network) only
 * when the server runs with `WEBHOOKS_ALLOW_PRIVATE=true`, which its refusal does not say.
 */

/** The hint under the URL field. */
export const webhookUrlHint =
  'An http:// or https:// URL on a public address. A private or loopback address (a service on your own network) is refused unless the server runs with WEBHOOKS_ALLOW_PRIVATE=true.'

/**
 * The server's messages for the URL field, each refusal of a non-public address followed by how an
 * operator allows it.
 * @param errors the messages as the server sent them (`ApiError.field('url')`)
 */
export function webhookUrlErrors(errors: readonly string[] | undefined): string[] | undefined {
  return errors?.map((message) =>
    /private, loopback or link-local/.test(message)
      ? `${message}. To send webhooks to your own network, start the server with WEBHOOKS_ALLOW_PRIVATE=true.`
      : message,
  )
}
