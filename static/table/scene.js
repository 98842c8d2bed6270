// The Scene the table plays: "New Scene" runs the engine's new_scene on every sheet of the kind that keeps Scenes
// (each earns the Scene's XP and its Convictions declared for the Scene are declared no more), in one log entry.
// Which procedure keeps Scenes, and what a new one does, are arbiter.api's (the op it publishes, and its words).

import { h } from '../dom.js';

/** The procedure whose table keeps Scenes: the one publishing the new_scene op. Pure. */
export const sceneOf = (spec) =>
  Object.keys(spec).find((id) => spec[id].table_ops.some((op) => op.name === 'new_scene'));

export class Scene {
  constructor(table) {
    this.t = table;
    this.system = sceneOf(table.spec);
  }

  /** new_scene as the engine publishes it: its label and words. */
  op() {
    return this.t.spec[this.system].table_ops.find((o) => o.name === 'new_scene');
  }

  /** [id, character] of every character whose sheet keeps Scenes. */
  characters() {
    const kind = this.t.characters.kindOf(this.system);
    return this.t.characters.list().filter(([, c]) => c.kind === kind);
  }

  view() {
    if (!this.system) return null;
    const { label, help } = this.op();
    const kind = this.t.characters.kindName(this.t.characters.kindOf(this.system));
    const n = this.characters().length;
    return h(
      'div',
      { class: 'scene' },
      h('h4', {}, 'The Scene'),
      h('p', { class: 'muted' }, `${help} For every ${kind} character on this device (${n}).`),
      h(
        'button',
        {
          type: 'button',
          'data-k': 'scene:new',
          'data-op': 'new_scene',
          disabled: n === 0,
          onclick: () => this.t.enqueue(() => this.newScene()),
        },
        label,
      ),
    );
  }

  /** new_scene on each sheet that keeps Scenes, each on its latest revision; what each got (or why not) goes in one
   * log entry; a form filled from one of them is filled again (no Conviction is declared any more). */
  async newScene() {
    const chars = this.characters();
    const said = [];
    for (const [id, c] of chars) {
      const notes = [];
      await this.t.rules.charOp(id, this.system, 'new_scene', null, { notes });
      said.push(`${c.name || '(unnamed)'}: ${notes.join('; ')}`);
    }
    const text = said.join(' · ');
    this.t.say(text);
    await this.t.log.note(this.system, null, text);
    for (const [id] of chars) await this.t.rollAs.refresh(id);
  }
}
