// Runs a corpus of records and sheets through static/store/schema.js, for tests/test_js_schema_agrees.py:
//   node tests/js/check-corpus.mjs CORPUS.json  ->  one {ok, value} or {message} (or {crash}) per case, as JSON.
// CORPUS.json: {published: {systems, table}, cases: [{door: 'record' | 'sheet', name, value}]}.

import { readFileSync } from 'node:fs';

const { published, cases } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
globalThis.arbiterPublished = published;
const { CheckError, checkRecord, checkSheet } = await import('../../static/store/schema.js');

const answers = cases.map(({ door, name, value }) => {
  try {
    return { ok: true, value: door === 'record' ? checkRecord(name, value) : checkSheet(name, value) };
  } catch (error) {
    return error instanceof CheckError ? { ok: false, message: error.message } : { crash: String(error.stack) };
  }
});
process.stdout.write(JSON.stringify(answers));
