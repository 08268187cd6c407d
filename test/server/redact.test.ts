import { describe, expect, it } from 'vitest';
import { clientErrorMessage, ECHO_MAX, OUTSIDE_TEXT_MAX, outsideErrorText, REDACTED, redactSecrets } from '../../server/redact.ts';

describe('redactSecrets', () => {
  it.each([
    ['a bearer token', 'Authorization: Bearer s3cr3t-t0ken-value', 's3cr3t-t0ken-value'],
    ['basic credentials', 'authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA=='],
    ['an api-key header in a JSON dump', '{"api-key":"my-qdrant-key","host":"q"}', 'my-qdrant-key'],
    ['an apiKey field as graphql-js prints a variable', '{ id: "p", apiKey: "plain words key", models: 5 }', 'words key'],
    ['a password in single quotes', "password='it is open sesame'", 'sesame'],
    ['an apiKey field inside a JSON log line', JSON.stringify({ msg: 'got { apiKey: "k-123456" }' }), 'k-123456'],
    ['a query parameter', 'GET /x?token=abc123&x=1', 'abc123'],
    ['an environment assignment', 'MNEMO_QDRANT_API_KEY=hunter2hunter2', 'hunter2hunter2'],
    ['credentials in a URL', 'connect to https://bob:pa55word@qdrant.example:6333 failed', 'pa55word'],
    ['an OpenAI-style key', 'key sk-proj-Ab12Cd34Ef56 was refused', 'sk-proj-Ab12Cd34Ef56'],
    ['a mnemo token', 'mnemo_QlQlDcz9lrO_f8fVIfIRd5DvjL8eUw1Oqdbh9PcUKAI', 'QlQlDcz9lrO_f8fVIfIRd5DvjL8eUw1Oqdbh9PcUKAI'],
    ['a random key of any prefix', 'key=… then aB3dE5gH7jK9mN1pQ3sT5vX7z9 alone', 'aB3dE5gH7jK9mN1pQ3sT5vX7z9'],
  ])('removes %s', (_what, text, secret) => {
    const redacted = redactSecrets(text);
    expect(redacted).not.toContain(secret);
    expect(redacted).toContain(REDACTED);
  });

  it('removes a known secret whatever its shape', () => {
    expect(redactSecrets('denied for plainword', ['plainword'])).toBe(`denied for ${REDACTED}`);
  });

  it('keeps ids, names and paths readable', () => {
    const text =
      'apiKeyId: "key_123" hasApiKey: true tokenId: "2f1c7a9e-3b4d-4e5f-8a6b-7c8d9e0f1a2b" maxTokens: 800 ' +
      'at coerceInputValueImpl (/work/node_modules/graphql/utilities/coerceInputValue.js:179:9) ' +
      'send Authorization: Bearer <token> "password":null model Xenova/all-MiniLM-L6-v2';
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('outsideErrorText', () => {
  it('is one line, without the key, and at most OUTSIDE_TEXT_MAX characters plus the count of the rest', () => {
    const page = `<html>\n<body>502 Bad Gateway\n<pre>api-key: qd-key-1\n${'x'.repeat(5000)}</pre></body></html>`;
    const text = outsideErrorText(new Error(page), ['qd-key-1']);
    expect(text).not.toContain('qd-key-1');
    expect(text).not.toContain('\n');
    expect(text).toMatch(/… \(\d+ more characters\)$/);
    expect(text.length).toBeLessThan(OUTSIDE_TEXT_MAX + 40);
  });
});

describe('clientErrorMessage', () => {
  it('cuts every value it repeats back to a short prefix', () => {
    const huge = 'x'.repeat(10_000_000);
    const message = clientErrorMessage(`Variable "$n" got invalid value "${huge}"; Int cannot represent non-integer value: "${huge}"`);
    expect(message).toBe(
      `Variable "$n" got invalid value "${'x'.repeat(ECHO_MAX)}…"; Int cannot represent non-integer value: "${'x'.repeat(ECHO_MAX)}…"`,
    );
  });

  it('never repeats a write-only field back, even cut', () => {
    const message = clientErrorMessage(
      'Variable "$i" got invalid value { id: "p", apiKey: "sk-live-0123456789abcdefghijklmnopqrstuvwxyz0123456789" }; Field "models" of required type "[ProviderModelInput!]!" was not provided.',
    );
    expect(message).not.toContain('sk-live-0123');
    expect(message).toContain(`apiKey: "${REDACTED}"`);
  });
});
