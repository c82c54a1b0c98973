/**
 * Slack credentials have recognisable shapes (xoxb-, xoxp-, xapp-, ...). Anything we log or store
 * about a Slack failure passes through here first, so a token that ends up in a library's error
 * text (a URL, a request dump) never reaches a log line or the outbox's last_error column.
 */
const TOKEN = /\bx(?:ox[abeoprs]|app)-[A-Za-z0-9-]+/g;

export function redactTokens(text: string): string {
  return text.replace(TOKEN, '[redacted]');
}
