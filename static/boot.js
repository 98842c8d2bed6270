// The page's first script, inline in index.html right after its Content-Security-Policy, which allows exactly this
// script by its sha256 (py/tools/page.py inlines it without these comment lines and writes the hash; dist/ holds no
// boot.js). A classic script, not a module: it runs at once, before any module is fetched. It imports nothing.
// - It keeps the page's errors and the Roll taps made before main.js runs.
// - It splits the first paint in two, so neither frame is a long task: the first frame lays out only the header and
//   the loading line (style.css hides the rest while <html data-first-frame>), the next one the forms.

// Every uncaught error and unhandled rejection of the page, kept from its first line (the tests read it in every
// engine: WebDriver has no event for them; a bug report can copy it).
self.arbiterErrors = [];
addEventListener('error', (e) => self.arbiterErrors.push(String(e.message || e.error)));
addEventListener('unhandledrejection', (e) =>
  self.arbiterErrors.push(`Unhandled rejection: ${e.reason?.stack ?? e.reason}`),
);
// A tap on Roll before main.js runs: no form is sent (that would reload the page); main.js rolls it once it runs.
self.arbiterEarlyRolls = [];
addEventListener(
  'submit',
  (e) => {
    if (!self.arbiterEarlyRolls || !e.target.dataset.system) return;
    e.preventDefault();
    self.arbiterEarlyRolls.push(e.target.dataset.system);
  },
  true,
);
document.documentElement.dataset.firstFrame = '';
requestAnimationFrame(() => setTimeout(() => delete document.documentElement.dataset.firstFrame, 0));
