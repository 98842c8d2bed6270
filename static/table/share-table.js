// "Share this table" (issue 22): the Host sends the table's shared state — the Scheme, the Situations and who marked
// what, and the characters if chosen — to the other phones as a link and its QR code, or past one code its numbered
// codes (../share/codes.js), scanned in any order (arbiter.api.share_table packs it and checks each record first). A phone that opens it asks before replacing anything (received.js).
import { checkbox, h } from '../dom.js';
import { tableCodes } from '../share/codes.js';
import { openShareSheet } from '../share/dialog.js';
import { linkTo } from '../views.js';
import { RECORDS } from '../store/schema.js';

export class ShareTable {
  constructor(table) {
    this.t = table;
    this.withCharacters = false;
    this.sharing = false;
  }

  view() {
    const count = this.t.characters.list().length;
    return [
      h('h3', {}, 'Share this table'),
      h(
        'p',
        { class: 'muted' },
        'Send the Scheme and the Situations (who marked what) to the other phones: they open the link or scan its ' +
          'code, and each says yes before its own are replaced. Each phone keeps its own log.',
      ),
      count
        ? checkbox('share:characters', `With the characters (${count})`, this.withCharacters, (on) => {
            this.withCharacters = on;
          })
        : null,
      h(
        'button',
        { type: 'button', 'data-k': 'share:table', 'data-share-table': '', onclick: (e) => this.share(e) },
        'Share this table…',
      ),
    ];
  }

  async share(event) {
    if (this.sharing) return; // one request a tap
    this.sharing = true;
    const button = event.currentTarget;
    button.setAttribute('aria-disabled', 'true');
    try {
      const { store } = this.t;
      const characters = this.withCharacters ? this.t.characters.list().map(([id, data]) => ({ id, data })) : null;
      const link = await this.t.arbiter.shareTable(
        store.get('shared:scheme') ?? RECORDS.scheme.default,
        store.get('shared:price'),
        characters,
      );
      const what = characters?.length
        ? 'the Scheme, the Situations and the characters'
        : 'the Scheme and the Situations';
      await openShareSheet({
        title: 'Share this table',
        link: linkTo('t', link.fragment),
        codes: () => tableCodes(link.id, link.fragment), // past one code: numbered codes, scanned in any order
        about: `The link holds ${what} of this phone. A phone that opens it asks first, keeps what it replaces aside, and keeps its own log.`,
      });
    } catch (error) {
      this.t.say(`Not shared: ${error.message}`, true);
    } finally {
      this.sharing = false;
      button.removeAttribute('aria-disabled');
    }
  }
}
