// Forms: read a request from a procedure's form and fill a form from a request, guided by the field
// declarations that arbiter.api.systems() publishes (embedded in the page at build time). Knows no rules, and builds
// no markup: the build writes every form (py/tools/page.py), a new list row included (its <template>).

const byPath = (root, path) => root.querySelector(`[data-path="${CSS.escape(path)}"]`);

/** A whole number if the text is one; otherwise the text itself, so the engine names the field in its refusal. */
export function toInt(text) {
  const t = String(text).trim();
  return /^[+-]?\d{1,9}$/.test(t) ? Number(t) : t;
}

/** The request the form describes, shaped by the field declarations `fields`. */
export function readForm(form, fields) {
  return Object.fromEntries(fields.map((f) => [f.name, readField(form, f, f.name)]));
}

function readField(root, f, path) {
  const el = byPath(root, path);
  switch (f.type) {
    case 'int':
      return toInt(el.value);
    case 'bool':
      return el.checked;
    case 'choice':
    case 'text':
      return el.value;
    case 'int_or_word':
      return f.words.includes(el.value) ? el.value : toInt(el.value);
    case 'int_list':
      return items(el).map((li) => toInt(li.querySelector('input').value));
    case 'group': {
      if (!root.querySelector(`[data-toggle="${CSS.escape(path)}"]`).checked) return null;
      return Object.fromEntries(f.fields.map((g) => [g.name, readField(root, g, `${path}.${g.name}`)]));
    }
    case 'records':
      return items(el).map((li, i) =>
        Object.fromEntries(f.fields.map((g) => [g.name, readField(li, g, `${path}[${i}].${g.name}`)])),
      );
    default:
      throw new Error(`unknown field type ${f.type}`);
  }
}

const items = (container) => [...container.querySelector(':scope > ol.items').children];

/** Set the form to show `request` (missing fields keep what the form has). */
export function fillForm(form, fields, request) {
  for (const f of fields) if (request && f.name in request) fillField(form, f, f.name, request[f.name]);
}

function fillField(root, f, path, value) {
  const el = byPath(root, path);
  if (!el) return;
  switch (f.type) {
    case 'bool':
      el.checked = value === true;
      break;
    case 'int':
    case 'choice':
    case 'text':
    case 'int_or_word':
      el.value = String(value);
      break;
    case 'int_list':
    case 'records': {
      if (!Array.isArray(value)) return;
      resize(el, Math.max(Number(el.dataset.minLen), Math.min(Number(el.dataset.maxLen), value.length)));
      items(el).forEach((li, i) => {
        if (f.type === 'int_list') li.querySelector('input').value = String(value[i]);
        else {
          for (const g of f.fields) {
            if (value[i] && g.name in value[i]) fillField(li, g, `${path}[${i}].${g.name}`, value[i][g.name]);
          }
        }
      });
      break;
    }
    case 'group': {
      const toggle = root.querySelector(`[data-toggle="${CSS.escape(path)}"]`);
      toggle.checked = value !== null && typeof value === 'object';
      showGroup(toggle);
      if (toggle.checked) {
        for (const g of f.fields) if (g.name in value) fillField(root, g, `${path}.${g.name}`, value[g.name]);
      }
      break;
    }
  }
}

/** Wire the add/remove buttons of lists and the switches of optional groups. */
export function wireForm(form) {
  form.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-add], button[data-remove]');
    if (!button) return;
    const list = button.closest('[data-list]');
    resize(list, items(list).length + (button.hasAttribute('data-add') ? 1 : -1));
    form.dispatchEvent(new Event('input', { bubbles: true }));
  });
  // A field's help, clamped on a phone (style.css), opens whole when its field is first focused or the help tapped,
  // and stays open: closing it as the focus moves on would shift the fields under the thumb mid-tap.
  const openHelp = (event) =>
    event.target.closest('.field')?.querySelector(':scope > .help')?.setAttribute('data-open', '');
  form.addEventListener('focusin', openHelp);
  form.addEventListener('click', (event) => {
    if (event.target.closest('.help')) openHelp(event);
  });
  for (const toggle of form.querySelectorAll('[data-toggle]')) {
    toggle.addEventListener('change', () => showGroup(toggle));
    showGroup(toggle);
  }
  for (const list of form.querySelectorAll('[data-list]')) updateListButtons(list);
}

function showGroup(toggle) {
  const body = document.getElementById(toggle.getAttribute('aria-controls'));
  body.hidden = !toggle.checked;
  toggle.setAttribute('aria-expanded', String(toggle.checked));
  for (const el of body.querySelectorAll('input, select')) el.disabled = !toggle.checked;
}

function resize(list, n) {
  const min = Number(list.dataset.minLen),
    max = Number(list.dataset.maxLen);
  n = Math.max(min, Math.min(max, n));
  const ol = list.querySelector(':scope > ol.items');
  while (ol.children.length > n) ol.lastElementChild.remove();
  while (ol.children.length < n) ol.append(newItem(list, ol.children.length));
  updateListButtons(list);
}

/** Row `i` of a list: a copy of the row <template> the build wrote (py/tools/page.py), its placeholders for the row's
 * index and 1-based number (named on the template) replaced in every attribute: paths, ids, labels. */
function newItem(list, i) {
  const template = list.querySelector(':scope > template');
  const { index, number } = template.dataset;
  const li = template.content.firstElementChild.cloneNode(true);
  for (const el of [li, ...li.querySelectorAll('*')]) {
    for (const attr of el.attributes) {
      attr.value = attr.value.replaceAll(index, String(i)).replaceAll(number, String(i + 1));
    }
  }
  return li;
}

function updateListButtons(list) {
  const n = items(list).length;
  list.querySelector('[data-add]').disabled = n >= Number(list.dataset.maxLen);
  list.querySelector('[data-remove]').disabled = n <= Number(list.dataset.minLen);
}

/** What a player reads for the field at `path`, from its declaration in `fields`: the field's label, the row's number
 * in a list ('threats[1].name': "Threat 2"), the group it sits in after it; null if no field has that path. */
export function labelOf(fields, path) {
  const parts = String(path).match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let decls = fields,
    label = null,
    row = '';
  const groups = [];
  for (const part of parts) {
    const index = /^\[(\d+)\]$/.exec(part);
    if (index) {
      row = ` ${Number(index[1]) + 1}`;
      continue;
    }
    const f = decls?.find((g) => g.name === part);
    if (!f) return null;
    if (label && !row) groups.push(label);
    label = f.label;
    decls = f.fields;
  }
  return label && `${label}${row}${groups.length ? ` (${groups.join(', ')})` : ''}`;
}

/** A refusal in a player's words: the label of the field it names before what it says of it ("Type I Attribute must
 * be from 1 to 5"), else the engine's message as it is. */
export function inWords(error, fields) {
  const label = error?.path && error.says ? labelOf(fields, error.path) : null;
  return label ? `${label} ${error.says}` : String(error?.message ?? error);
}

/** Every field a refusal found wrong (its `problems`, else the one it names), each in a player's words as `inWords`
 * says it: [{message, path}]. */
export function problemsInWords(error, fields) {
  const problems = error?.problems?.length > 1 ? error.problems : [error];
  return problems.map((p) => ({ message: inWords(p, fields), path: p?.path ?? null }));
}

/** Show each of `problems` ([{message, path}]) next to its field, every one flagged at once (aria-invalid), announced
 * unless `quiet`; false if the first matched no field. */
export function showErrors(form, problems, quiet = false) {
  clearErrors(form);
  const matched = problems.map(({ message, path }) => markField(form, message, path, quiet));
  return matched[0] ?? false;
}

function markField(form, message, path, quiet) {
  if (!path) path = /'([^']+)'/.exec(message)?.[1] ?? null;
  let el = null;
  while (path && !(el = byPath(form, path))) {
    const shorter = path.replace(/(\[\d+\]|\.[^.[]+)$/, '');
    path = shorter === path ? null : shorter;
  }
  const box = el ? (el.closest('.field') ?? el) : form.querySelector('.fields'); // each has its error line
  const out = box.querySelector(':scope > output.field-error');
  out.textContent = out.hidden || !out.textContent ? message : `${out.textContent}; ${message}`;
  out.hidden = false;
  if (!quiet) out.setAttribute('role', 'alert');
  if (el && el.matches('input, select')) el.setAttribute('aria-invalid', 'true');
  return Boolean(el);
}

export function clearErrors(form) {
  for (const out of form.querySelectorAll('output.field-error')) {
    out.hidden = true;
    out.textContent = '';
    out.removeAttribute('role');
  }
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
}
