/**
 * Secrets out of text that leaves the process: error texts of outside services (model providers, rerankers,
 * Qdrant) before anyone sees or logs them, error messages sent back to clients, and every log line. Secrets
 * are recognised by shape, since the text may come from anywhere (a proxy's error page echoing request headers,
 * graphql-js echoing a variable, a stack trace): bearer and basic credentials, write-only fields written as
 * `name: value` or `name=value`, credentials in URLs, and strings that look like keys. Known secrets (the key
 * a call was made with) are removed whatever their shape.
 */

/** What stands in for a secret. */
export const REDACTED = '[redacted]';

/** The most characters of an outside service's error text that are shown or logged. */
export const OUTSIDE_TEXT_MAX = 300;

/** The most characters of a caller's value that an error message repeats back. */
export const ECHO_MAX = 40;

/**
 * Field names whose value is a secret: write-only inputs (apiKey), request headers (authorization, api-key)
 * and the usual names of credentials. Matched only as a whole name: `apiKeyId` and `hasApiKey` are not secrets.
 */
const SECRET_FIELD =
  '(?:x-)?api[-_]?key|authorization|proxy-authorization|password|passwd|passphrase|secret|client[-_]?secret|(?:access|refresh|auth|bearer|id)[-_]?token|token';

const PATTERNS: [RegExp, string][] = [
  // Authorization: Bearer <token>, Basic <base64>.
  [/\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/=-]{6,}/gi, `$1$2${REDACTED}`],
  // scheme://user:password@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'\\]+@/gi, `$1${REDACTED}@`],
  // Keys by their well-known prefixes: OpenAI/Anthropic (sk-), mnemo's own, Hugging Face, GitHub, Slack, AWS, JWTs.
  [
    /\b(?:sk-[A-Za-z0-9_-]{8,}|sk_(?:live|test)_[A-Za-z0-9]{8,}|mnemo_[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)/g,
    REDACTED,
  ],
];

/**
 * name: value, name=value, "name":"value", and the same with the quotes escaped inside a JSON string. A quoted
 * value is removed up to its closing quote (it may hold spaces); a bare one up to the next space or separator.
 */
const SECRET_FIELD_VALUE = new RegExp(
  `(?<![A-Za-z0-9])(${SECRET_FIELD})(\\\\?["']?\\s*[:=]\\s*)(?!\\[redacted\\])(?:(\\\\?")[^"\\\\]+|(')[^'\\\\]+|([^\\s"'\\\\,;&}\\]]+))`,
  'gi',
);
/** Bare values that are no secret: JSON literals, and the scheme of "Authorization: Bearer <token>" in a message. */
const NOT_A_SECRET = /^(?:null|true|false|undefined|Bearer|Basic)$/i;
/** A bare capitalised word is how validation messages go on ("apiKey: Too big: …"), not a key. */
const PROSE = /^[A-Z][a-z]+$/;

/**
 * Any other run of 24+ key characters mixing upper case, lower case and digits, as random keys do. UUIDs,
 * hex digests, words and paths do not mix all three, so ids and stack traces stay readable.
 */
const KEY_LIKE = /(?<![A-Za-z0-9_+=-])[A-Za-z0-9_+=-]{24,}(?![A-Za-z0-9_+=-])/g;
const looksRandom = (s: string) => /[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9]/.test(s);

/** `text` with every secret replaced by [redacted]: the `known` ones (4+ characters) and whatever looks like one. */
export function redactSecrets(text: string, known: readonly (string | null | undefined)[] = []): string {
  let out = text;
  for (const secret of known) if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  out = out.replace(SECRET_FIELD_VALUE, (whole, name: string, separator: string, ...value: (string | undefined)[]) => {
    const [doubleQuote, singleQuote, bare] = value;
    if (bare !== undefined && (NOT_A_SECRET.test(bare) || PROSE.test(bare))) return whole;
    return `${name}${separator}${doubleQuote ?? singleQuote ?? ''}${REDACTED}`;
  });
  return out.replace(KEY_LIKE, (run) => (looksRandom(run) ? REDACTED : run));
}

/** At most `max` characters, saying how many more there were; never cuts a character in two. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}… (${text.length - cut.length} more characters)`;
}

/**
 * An outside service's error text (an Error's message or the text itself), fit to show in a status field or
 * log: on one line, with secrets removed, and at most OUTSIDE_TEXT_MAX characters.
 */
export function outsideErrorText(error: unknown, known: readonly (string | null | undefined)[] = []): string {
  const text = error instanceof Error ? error.message : String(error);
  return shorten(redactSecrets(text.replace(/\s+/g, ' ').trim(), known), OUTSIDE_TEXT_MAX);
}

/**
 * An error message for a client and the log: secrets removed, and every quoted value it repeats back (graphql-js
 * quotes the variable it refused, whole) cut to ECHO_MAX characters, so a 10 MB argument never comes back as a
 * 10 MB error.
 */
export function clientErrorMessage(message: string): string {
  return shorten(
    redactSecrets(message.replace(QUOTED, (whole, body: string) => (body.length <= ECHO_MAX ? whole : `"${echo(body)}"`))),
    1000,
  );
}

// Unrolled ([^"\\]* runs between escapes) so that a 10 MB string takes no backtracking stack.
const QUOTED = /"([^"\\]*(?:\\.[^"\\]*)*)"/g;
const ECHO_WINDOW = ECHO_MAX + 200;

/** A long echoed value, redacted before it is cut (a secret cut in two would no longer look like one). */
function echo(body: string): string {
  const head = redactSecrets(body.slice(0, ECHO_WINDOW));
  if (body.length <= ECHO_WINDOW && head.length <= ECHO_MAX) return head;
  return `${head.slice(0, ECHO_MAX).replace(/\\$|[\ud800-\udbff]$/, '')}…`;
}
