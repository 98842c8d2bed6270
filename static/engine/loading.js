// The loading line (#status): its bar and words follow the rules engine's loading. A module of its own, ahead of
// main.js in the page, so that it runs as soon as the page is parsed: main.js waits for the forms' modules, which on a
// slow phone arrive behind the runtime's megabytes, and the bar would sit at 0 meanwhile. main.js says ready or failed.
import { arbiter } from './client.js';

const bar = document.getElementById('load-progress');
const label = document.getElementById('load-label');
arbiter.onProgress(({ progress, label: text }) => {
  bar.value = progress ?? bar.value;
  if (text) label.textContent = text;
});
