// The only place Python runs: a module Web Worker that loads Pyodide from this site, installs the
// arbiter wheel and answers the page's requests, so the page never blocks on the rules.
//
// Page -> worker: {id, method: "systems"|"roll"|"act"|"odds"|"table", args: [...]}
// Worker -> page: {progress: 0..1, label}       while loading
//                 {ready: true, version}        once arbiter.api is imported (progress 1)
//                 {failed: message}             if loading failed (the page may start a new worker)
//                 {id, ok: true, value}         an answer: the same JSON as the Python API
//                 {id, ok: false, kind, error}  kind "RulesError": its message; otherwise a clear text

import { loadPyodide } from "../pyodide/pyodide.mjs";

const LOCK_URL = new URL("../pyodide/pyodide-lock.json", import.meta.url);
const INDEX_URL = new URL("../pyodide/", import.meta.url);
// A .wasm served with the wrong MIME type, or a stalled download, can leave loading waiting
// forever: give up after this long. `?timeout=ms` on the worker's URL overrides it (tests use it).
const LOAD_TIMEOUT_MS = Number(new URL(self.location.href).searchParams.get("timeout")) || 120_000;

const METHODS = new Set(["systems", "roll", "act", "odds", "table"]);

// Runs inside Python: JSON strings in and out, so numbers and strings cross exactly.
const BRIDGE = `
import json
from arbiter import RulesError, api

def _arbiter_call(method, args_json):
    try:
        value = getattr(api, method)(*json.loads(args_json))
        return json.dumps({"ok": True, "value": value}, allow_nan=False)
    except RulesError as exc:
        return json.dumps({"ok": False, "kind": "RulesError", "error": str(exc)})
    except Exception as exc:
        return json.dumps({"ok": False, "kind": "InternalError", "error": f"Internal error in {method}: {type(exc).__name__}: {exc}"})

_arbiter_call
`;

let stage = "Starting";

function progress(value, label) {
  stage = label;
  self.postMessage({ progress: value, label });
}

function withTimeout(promise, ms) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Loading Python took longer than ${ms / 1000} s (stuck at: ${stage})`)),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function fetchJson(url) {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
  return response.json();
}

async function load() {
  progress(0, "Loading Python runtime…");
  const lock = await fetchJson(LOCK_URL);
  const pyodide = await loadPyodide({
    indexURL: INDEX_URL.href,
    lockFileContents: lock,
    packageBaseUrl: INDEX_URL.href,
    stdout: () => {},
    stderr: (line) => console.warn(line),
  });

  progress(0.6, "Loading micropip…");
  const problems = [];
  await pyodide.loadPackage("micropip", {
    messageCallback: () => {},
    errorCallback: (message) => problems.push(message),
  });
  // loadPackage reports a failed download through errorCallback and resolves anyway.
  if (!pyodide.loadedPackages.micropip) {
    throw new Error(`micropip did not load: ${problems.join(" ") || "unknown error"}`);
  }

  progress(0.75, "Installing the rules…");
  const wheel = new URL(lock.packages.arbiter.file_name, INDEX_URL);
  wheel.searchParams.set("sha256", lock.packages.arbiter.sha256); // a new build is never a stale cached wheel
  const micropip = pyodide.pyimport("micropip");
  try {
    await micropip.install.callKwargs(wheel.href, { deps: false });
  } finally {
    micropip.destroy();
  }

  progress(0.9, "Importing the rules…");
  const call = pyodide.runPython(BRIDGE);
  const version = pyodide.runPython("import arbiter; arbiter.__version__");
  return { call, version }; // the {ready} message below is the last step: progress 1
}

const loading = withTimeout(load(), LOAD_TIMEOUT_MS);
loading.then(
  ({ version }) => self.postMessage({ ready: true, version }),
  (error) => self.postMessage({ failed: String(error?.message ?? error) }),
);

self.onmessage = async (event) => {
  const { id, method, args } = event.data ?? {};
  let reply;
  try {
    const { call } = await loading;
    if (!METHODS.has(method)) throw new Error(`Unknown method ${JSON.stringify(method)}`);
    reply = JSON.parse(call(method, JSON.stringify(args ?? [])));
  } catch (error) {
    reply = { ok: false, error: String(error?.message ?? error) };
  }
  self.postMessage({ id, ...reply });
};
