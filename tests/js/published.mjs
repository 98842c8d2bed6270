// What arbiter.api publishes and the page embeds at build time (systems() and table_spec()), asked of CPython, for the
// table's modules under Node: import this first, before any module of static/store/ or static/table/.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT =
  'import json\nfrom arbiter import api\n' +
  'print(json.dumps({"systems": {s["id"]: s for s in api.systems()}, "table": api.table_spec()}))';

globalThis.arbiterPublished = JSON.parse(
  execFileSync(process.env.ARBITER_PYTHON ?? 'python3', ['-c', SCRIPT], {
    cwd: root,
    env: { ...process.env, PYTHONPATH: `${root}py` },
    encoding: 'utf8',
  }),
);
