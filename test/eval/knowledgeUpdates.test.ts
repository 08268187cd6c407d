import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateGatewayFolder, formatGatewayReport, type GatewayReport } from '../../eval/gateway.ts';

const u = (content: string, has_answer = false) => ({ role: 'user', content, has_answer });
const a = (content: string) => ({ role: 'assistant', content, has_answer: false });

/** The user names their editor in one session and switches in a later one; a question of another type rides along. */
const FILES = {
  '2_ku01.json': {
    question_id: 'ku01',
    question_type: 'knowledge-update',
    question: 'Which editor do I use?',
    answer: 'Helix',
    question_date: '2023/06/30 (Fri) 10:00',
    haystack_dates: ['2023/05/01 (Mon) 09:00', '2023/06/01 (Thu) 09:00'],
    haystack_session_ids: ['answer_ku01_1', 'answer_ku01_2'],
    haystack_sessions: [
      [u('I use Vim.', true), a('Vim is a fine editor.')],
      [u('I switched from Vim to Helix.', true), a('Helix has good defaults.')],
    ],
  },
  '1_ku02.json': {
    question_id: 'ku02',
    question_type: 'single-session-preference',
    question: 'Which drink do I prefer?',
    answer: 'green tea',
    question_date: '2023/05/30 (Tue) 10:00',
    haystack_dates: ['2023/05/20 (Sat) 09:00'],
    haystack_session_ids: ['answer_ku02'],
    haystack_sessions: [[u('I prefer green tea over coffee.', true), a('Noted.')]],
  },
};

let dir: string;
let report: GatewayReport;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mnemo-eval-updates-test-'));
  for (const [name, body] of Object.entries(FILES)) writeFileSync(path.join(dir, name), JSON.stringify(body));
  report = await evaluateGatewayFolder(dir, { ks: [1, 5], captures: ['OFF'], supersession: ['on', 'off'], types: ['knowledge-update'] });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (supersession: 'on' | 'off') => report.rows.find((r) => r.mode === 'OFF' && r.supersession === supersession)!;

describe('knowledge-update questions in gateway mode', () => {
  it('asks only the questions of the types given, and replays each capture mode with supersession on and off', () => {
    expect(report.questions).toBe(1);
    expect(report.rows.map((r) => [r.mode, r.supersession])).toEqual([
      ['direct', 'on'],
      ['OFF', 'on'],
      ['OFF', 'off'],
    ]);
  });

  it('with supersession, the block holds the update and not what it replaced', () => {
    expect(run('on').updates).toMatchObject({ questions: 1, latestOnly: 1, latestInBlock: 1, earlierInBlock: 0, r1: 1, mrr: 1 });
  });

  it('without it, the replaced fact is injected beside the update', () => {
    expect(run('off').updates).toMatchObject({ latestInBlock: 1, earlierInBlock: 1, latestOnly: 0 });
  });

  it('reports them in a table of their own, one row per run', () => {
    const lines = formatGatewayReport(report).split('\n');
    expect(lines.filter((l) => l.startsWith('| gateway, capture OFF (facts only), supersession'))).toHaveLength(4);
    expect(lines.some((l) => l.startsWith('knowledge-update questions about the current value'))).toBe(true);
  });
});
