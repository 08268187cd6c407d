import { describe, expect, it } from 'vitest';
import { providerErrorMessage } from '../../server/embedding/providerHttp.ts';

const body = (json: unknown) => JSON.stringify(json);

describe("a provider's error body", () => {
  it.each([
    ['OpenAI', { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }, 'Incorrect API key provided'],
    ['a string error', { error: 'model not found' }, 'model not found'],
    ['a numeric error', { error: 404 }, '404'],
    ['Cohere', { message: 'invalid request: query must not be empty' }, 'invalid request: query must not be empty'],
    ['FastAPI (Jina)', { detail: 'Not authenticated' }, 'Not authenticated'],
  ])("gives %s's message", (_shape, json, message) => {
    expect(providerErrorMessage(body(json))).toBe(message);
  });

  it('gives a message that is not a string as JSON', () => {
    const detail = [{ loc: ['body', 'query'], msg: 'field required' }];
    expect(providerErrorMessage(body({ detail }))).toBe(JSON.stringify(detail));
  });

  it("prefers the error's own message to a message beside it", () => {
    expect(providerErrorMessage(body({ error: { message: 'quota exceeded' }, message: 'Bad Request' }))).toBe('quota exceeded');
  });

  it('looks past an error object without a message to the message beside it', () => {
    expect(providerErrorMessage(body({ error: { code: 'rate_limit' }, message: 'Slow down' }))).toBe('Slow down');
  });

  it('trims the message', () => {
    expect(providerErrorMessage(body({ error: { message: '  overloaded\n' } }))).toBe('overloaded');
  });

  it('gives the body itself when it is not JSON (a proxy page)', () => {
    expect(providerErrorMessage('<html><body>502 Bad Gateway</body></html>\n')).toBe('<html><body>502 Bad Gateway</body></html>');
  });

  it('gives the body itself when its JSON has no message', () => {
    expect(providerErrorMessage(body({ status: 'failed' }))).toBe('{"status":"failed"}');
    expect(providerErrorMessage(body(['failed']))).toBe('["failed"]');
  });

  it('gives null for an empty body or an empty message, so the status text is used', () => {
    expect(providerErrorMessage('')).toBeNull();
    expect(providerErrorMessage(' \n')).toBeNull();
    expect(providerErrorMessage(body({ error: { message: ' ' } }))).toBeNull();
  });
});
