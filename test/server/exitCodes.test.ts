import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodesMarkdown } from '../../server/exitCodes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const START = '<!-- exit-codes:start -->';
const END = '<!-- exit-codes:end -->';

/** The documents a user reads: the README and whatever docs/ holds, wherever the exit codes' section lives. */
function documents(): { file: string; text: string }[] {
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name));
  return ['README.md', ...docs].map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));
}

const holdingTheTable = () => documents().filter(({ text }) => text.includes(START));

describe('the documented exit codes', () => {
  it('are listed in one document only', () => {
    expect(holdingTheTable().map(({ file }) => file)).toHaveLength(1);
  });

  it('are the codes the CLI exits with, each with its meaning', () => {
    const text = holdingTheTable()[0]?.text ?? '';
    const listed = text.slice(text.indexOf(START) + START.length, text.indexOf(END)).trim();
    expect(listed, 'the table between the markers is exitCodesMarkdown() of server/exitCodes.ts').toBe(exitCodesMarkdown());
  });
});
