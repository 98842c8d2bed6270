// Threat's view (002): its dice by the threat each went to (a tap picks one to reassign, while the roll offers it), the
// threats' outcomes, Pay the Price with the Situation's marks and who pays (the table's), and each threat's odds as a
// three-part bar.
import { h } from '../../dom.js';
import { dieFaces, percent, says, widthSpan } from '../view-parts.js';

export const threat = {
  dice(roll, ui, spec) {
    // the engine marks the die each threat takes; the page adds the die picked to reassign
    const owner = new Map();
    roll.assignment.forEach((list, t) => list.forEach((d) => owner.set(d, t)));
    return dieFaces(roll.dice, roll.marks, spec).map((die, i) => {
      const t = owner.get(i);
      if (ui.pickedDie === i) die.marks.push('selected');
      // a tap picks the die to reassign while the roll offers that: its 44 px tap box kept (dice/tray.js' `pick`)
      return { ...die, label: t === undefined ? '' : `T${t + 1}`, pick: canAssign(roll) };
    });
  },
  tap(roll, ui, index) {
    // a die goes to another threat, while the roll offers reassigning
    if (canAssign(roll)) ui.pickedDie = ui.pickedDie === index ? null : index;
  },
  choices(roll, ui, { act, spec, situation, refusal = () => null }) {
    const out = [];
    const list = h('ol', { class: 'threat-list', 'data-threats': '' });
    roll.threats.forEach((t, i) => {
      const words = t.die === null ? 'no die: it comes to pass' : `die ${t.die}: ${t.outcome}`;
      const body = [
        h('span', { class: 'name' }, `T${i + 1} ${t.name || '(unnamed threat)'}`),
        t.desperate ? ' (Desperate)' : '',
        h('span', {}, ` — ${words}`),
        t.text ? h('div', { class: 'muted' }, t.text) : null,
      ];
      const move = () => {
        const assign = roll.assignment.map((l) => l.filter((d) => d !== ui.pickedDie));
        assign[i].push(ui.pickedDie);
        act({ assign });
      };
      list.append(
        h(
          'li',
          { 'data-outcome': t.outcome },
          ui.pickedDie === null
            ? body
            : h(
                'button',
                { type: 'button', onclick: move, 'aria-label': `Give die ${ui.pickedDie + 1} to ${t.name}` },
                body,
              ),
        ),
      );
    });
    if (canAssign(roll)) {
      out.push(
        h(
          'p',
          { class: 'muted', 'data-reassign-hint': '' },
          ui.pickedDie === null
            ? 'To reassign, tap a die, then the threat it goes to (a threat takes its highest die).'
            : `Die ${ui.pickedDie + 1} (${roll.dice[ui.pickedDie]}) picked: now tap its threat.`,
        ),
      );
    }
    out.push(list);
    out.push(payThePrice(roll, ui, act, spec, situation, refusal));
    return out;
  },
  odds(odds, request) {
    return odds.threats.map((p, i) => {
      const name = request.threats?.[i]?.name || `Threat ${i + 1}`;
      return h(
        'div',
        { class: 'odds-row stack', 'data-key': `threat-${i}` },
        h('span', { class: 'label' }, name),
        h(
          'span',
          { class: 'bar', 'aria-hidden': 'true' },
          widthSpan(p.happens),
          widthSpan(p.lessened, 's2'),
          widthSpan(p.avoided, 's3'),
        ),
        h(
          'span',
          { class: 'legend' },
          `happens ${percent(p.happens)} · lessened ${percent(p.lessened)} · avoided ${percent(p.avoided)}`,
        ),
      );
    });
  },
};

/** Whether the roll offers reassigning its dice (the engine's `assign` choice: not with one threat, nor once a Price
 * is paid). */
const canAssign = (roll) => roll.choices.some((c) => c.name === 'assign');

/** Pay the Price, when the roll's choices offer it (a threat not Desperate got a 4 or 5, and its Price is not paid
 * yet). The Situation's marks, and who pays, are the table's (`situation`, null without it): an option marked by
 * another player stays offered, and the engine refuses it, naming who marked it; an option the one rolling cannot
 * pay on their sheet (`refusal`: one per option, from the choice's `actions`) is disabled, with the reason. */
function payThePrice(roll, ui, act, { extras }, situation, refusal) {
  const offer = roll.choices.find((c) => c.name === 'pay_the_price');
  if (!offer) return null;
  const marked = situation?.marked ?? [];
  const roller = situation?.roller ?? null;
  const player = roller
    ? null
    : h('input', {
        type: 'text',
        value: situation?.player ?? '',
        autocomplete: 'off',
        maxlength: situation?.maxName,
        'data-price-player': '',
      });
  player?.addEventListener('change', () => situation?.setPlayer(player.value));
  const missing = roller
    ? null
    : h('output', { class: 'field-error', role: 'alert', hidden: true }, 'Name who pays the Price first.');
  const pick = (option) => {
    const by = roller ?? player.value.trim();
    if (!by) {
      missing.hidden = false;
      player.focus();
      return;
    }
    act({ pay_the_price: option, by, marked });
  };
  const refused = refusal(offer) ?? [];
  const items = extras.pay_the_price.map((words, i) => {
    const mark = marked.find((m) => m.option === i);
    const why = refused[i];
    return h(
      'li',
      {},
      h(
        'button',
        {
          type: 'button',
          'aria-pressed': String(Boolean(mark)),
          'data-option': i,
          disabled: Boolean(why),
          onclick: () => pick(i),
        },
        words,
      ),
      mark
        ? h('span', { class: 'muted', 'data-marked-by': mark.by ?? '' }, ` — marked by ${mark.by ?? 'someone'}`)
        : null,
      why ? [' ', h('span', { class: 'field-error', 'data-refusal': '' }, why.words)] : null,
    );
  });
  const details = h(
    'details',
    { class: 'price', open: ui.priceOpen || roll.pay_the_price ? true : null },
    h('summary', {}, offer.label, says(offer)), // what paying ends (the reassigning), said before it opens
    h('p', { class: 'muted' }, extras.pay_the_price_rule),
    roller
      ? h('p', { 'data-price-by': roller }, `Paid by ${roller}, who rolls this.`)
      : h('label', { class: 'tf' }, h('span', {}, 'Who pays the Price'), player),
    missing,
    h('ol', { class: 'price-list' }, items),
    situation
      ? h(
          'p',
          { class: 'muted' },
          `Marks kept for the Situation “${situation.name || '(unnamed)'}”. `,
          h('button', { type: 'button', onclick: () => situation.fresh() }, 'New Situation'),
        )
      : null,
  );
  details.addEventListener('toggle', () => {
    ui.priceOpen = details.open;
  });
  return details;
}
