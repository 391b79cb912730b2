// Small scenario snippets with the exact tokens and scopes the grammar must give them (the scopes without their `.deckspec-feature` ending).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { tokenize } = require('./tokenizer');

const SUFFIX = '.deckspec-feature';

/** A line's tokens as `[text, 'scope scope …']`, neighbours with the same scopes joined. */
function simplified(line) {
  const out = [];
  for (const token of line.tokens) {
    for (const scope of token.scopes) {
      assert.ok(scope.endsWith(SUFFIX), `the scope ${scope} does not end with ${SUFFIX}`);
    }
    const scopes = token.scopes.map((s) => s.slice(0, -SUFFIX.length)).join(' ');
    const last = out[out.length - 1];
    if (last && last[1] === scopes) last[0] += token.text;
    else out.push([token.text, scopes]);
  }
  return out;
}

// Each case's text is its lines' token texts put together.
const cases = [
  {
    name: 'a tag line: a rule tag with its id, another tag, a comment',
    lines: [
      // @rule:CAM-SNAP-5 @slow # why
      [
        ['@', 'meta.tags entity.name.tag.rule punctuation.definition.tag'],
        ['rule:', 'meta.tags entity.name.tag.rule'],
        ['CAM-SNAP-5', 'meta.tags entity.name.tag.rule constant.other.rule-id'],
        [' ', 'meta.tags'],
        ['@', 'meta.tags entity.name.tag punctuation.definition.tag'],
        ['slow', 'meta.tags entity.name.tag'],
        [' ', 'meta.tags'],
        ['#', 'meta.tags comment.line.number-sign punctuation.definition.comment'],
        [' why', 'meta.tags comment.line.number-sign'],
      ],
    ],
  },
  {
    name: 'a Scenario Outline header with a placeholder in its title',
    lines: [
      //   Scenario Outline: a snap of <card>
      [
        ['  ', 'meta.header.scenario-outline'],
        ['Scenario Outline:', 'meta.header.scenario-outline keyword.control.scenario-outline'],
        [' ', 'meta.header.scenario-outline'],
        ['a snap of ', 'meta.header.scenario-outline entity.name.section.scenario-outline'],
        ['<', 'meta.header.scenario-outline entity.name.section.scenario-outline variable.parameter.placeholder punctuation.definition.placeholder.begin'],
        ['card', 'meta.header.scenario-outline entity.name.section.scenario-outline variable.parameter.placeholder'],
        ['>', 'meta.header.scenario-outline entity.name.section.scenario-outline variable.parameter.placeholder punctuation.definition.placeholder.end'],
      ],
    ],
  },
  {
    name: 'the other headers and their titles',
    lines: [
      // Feature: Snapping
      [
        ['Feature:', 'meta.header.feature keyword.control.feature'],
        [' ', 'meta.header.feature'],
        ['Snapping', 'meta.header.feature entity.name.section.feature'],
      ],
      //   Rule: a wrong snap costs two cards
      [
        ['  ', 'meta.header.rule'],
        ['Rule:', 'meta.header.rule keyword.control.rule'],
        [' ', 'meta.header.rule'],
        ['a wrong snap costs two cards', 'meta.header.rule entity.name.section.rule'],
      ],
      //   Background:
      [
        ['  ', 'meta.header.background'],
        ['Background:', 'meta.header.background keyword.control.background'],
      ],
      //   Example: bob snaps
      [
        ['  ', 'meta.header.scenario'],
        ['Example:', 'meta.header.scenario keyword.control.scenario'],
        [' ', 'meta.header.scenario'],
        ['bob snaps', 'meta.header.scenario entity.name.section.scenario'],
      ],
    ],
  },
  {
    name: 'a comment line',
    lines: [
      //   # not a step: When bob does snap 7S
      [
        ['  ', ''],
        ['#', 'comment.line.number-sign punctuation.definition.comment'],
        [' not a step: When bob does snap 7S', 'comment.line.number-sign'],
      ],
    ],
  },
  {
    name: '`<player> does <action>`: the player, the action as a function name, a card',
    lines: [
      //     When bob does snap 10H
      [
        ['    ', 'meta.step'],
        ['When', 'meta.step keyword.control.step'],
        [' ', 'meta.step'],
        ['bob', 'meta.step variable.other.player'],
        [' does ', 'meta.step'],
        ['snap', 'meta.step entity.name.function.action'],
        [' ', 'meta.step'],
        ['10H', 'meta.step constant.other.card'],
      ],
      //     When <who> does <action> slot 0 and bob's slot 1
      [
        ['    ', 'meta.step'],
        ['When', 'meta.step keyword.control.step'],
        [' ', 'meta.step'],
        ['<', 'meta.step variable.other.player variable.parameter.placeholder punctuation.definition.placeholder.begin'],
        ['who', 'meta.step variable.other.player variable.parameter.placeholder'],
        ['>', 'meta.step variable.other.player variable.parameter.placeholder punctuation.definition.placeholder.end'],
        [' does ', 'meta.step'],
        ['<', 'meta.step entity.name.function.action variable.parameter.placeholder punctuation.definition.placeholder.begin'],
        ['action', 'meta.step entity.name.function.action variable.parameter.placeholder'],
        ['>', 'meta.step entity.name.function.action variable.parameter.placeholder punctuation.definition.placeholder.end'],
        [' ', 'meta.step'],
        ['slot', 'meta.step keyword.other.slot'],
        [' ', 'meta.step'],
        ['0', 'meta.step constant.numeric'],
        [' and ', 'meta.step'],
        ['bob', 'meta.step variable.other.player'],
        ['\'s', 'meta.step punctuation.separator.possessive'],
        [' ', 'meta.step'],
        ['slot', 'meta.step keyword.other.slot'],
        [' ', 'meta.step'],
        ['1', 'meta.step constant.numeric'],
      ],
    ],
  },
  {
    name: 'a new game: the variant and the players',
    lines: [
      //     Given a cambia game with players ann, bob and cat
      [
        ['    ', 'meta.step'],
        ['Given', 'meta.step keyword.control.step'],
        [' a ', 'meta.step'],
        ['cambia', 'meta.step entity.name.namespace.variant'],
        [' game with players ', 'meta.step'],
        ['ann', 'meta.step variable.other.player'],
        [',', 'meta.step punctuation.separator.comma'],
        [' ', 'meta.step'],
        ['bob', 'meta.step variable.other.player'],
        [' and ', 'meta.step'],
        ['cat', 'meta.step variable.other.player'],
      ],
    ],
  },
  {
    name: 'cards, an empty slot, any card and a joker',
    lines: [
      //     And ann holds 7S, _, ?, JK
      [
        ['    ', 'meta.step'],
        ['And', 'meta.step keyword.control.step'],
        [' ', 'meta.step'],
        ['ann', 'meta.step variable.other.player'],
        [' holds ', 'meta.step'],
        ['7S', 'meta.step constant.other.card'],
        [',', 'meta.step punctuation.separator.comma'],
        [' ', 'meta.step'],
        ['_', 'meta.step constant.language.empty-slot'],
        [',', 'meta.step punctuation.separator.comma'],
        [' ', 'meta.step'],
        ['?', 'meta.step constant.language.any-card'],
        [',', 'meta.step punctuation.separator.comma'],
        [' ', 'meta.step'],
        ['JK', 'meta.step constant.other.card.joker'],
      ],
      //     And ann's slot 2 is 10♥
      [
        ['    ', 'meta.step'],
        ['And', 'meta.step keyword.control.step'],
        [' ', 'meta.step'],
        ['ann', 'meta.step variable.other.player'],
        ['\'s', 'meta.step punctuation.separator.possessive'],
        [' ', 'meta.step'],
        ['slot', 'meta.step keyword.other.slot'],
        [' ', 'meta.step'],
        ['2', 'meta.step constant.numeric'],
        [' is ', 'meta.step'],
        ['10♥', 'meta.step constant.other.card'],
      ],
    ],
  },
  {
    name: 'house rules, properties, a phase, numbers, a list and booleans',
    lines: [
      //     And the house rule initial_peek_slots is [2, 3]
      [
        ['    ', 'meta.step'],
        ['And', 'meta.step keyword.control.step'],
        [' the house rule ', 'meta.step'],
        ['initial_peek_slots', 'meta.step variable.other.house-rule'],
        [' is ', 'meta.step'],
        ['[', 'meta.step punctuation.definition.list.begin'],
        ['2', 'meta.step constant.numeric'],
        [',', 'meta.step punctuation.separator.comma'],
        [' ', 'meta.step'],
        ['3', 'meta.step constant.numeric'],
        [']', 'meta.step punctuation.definition.list.end'],
      ],
      //     And ann's collection_rank is -0.5
      [
        ['    ', 'meta.step'],
        ['And', 'meta.step keyword.control.step'],
        [' ', 'meta.step'],
        ['ann', 'meta.step variable.other.player'],
        ['\'s', 'meta.step punctuation.separator.possessive'],
        [' ', 'meta.step'],
        ['collection_rank', 'meta.step variable.other.property'],
        [' is ', 'meta.step'],
        ['-0.5', 'meta.step constant.numeric'],
      ],
      //     And the discard pile sealed is true
      [
        ['    ', 'meta.step'],
        ['And', 'meta.step keyword.control.step'],
        [' the ', 'meta.step'],
        ['discard pile sealed', 'meta.step variable.other.property'],
        [' is ', 'meta.step'],
        ['true', 'meta.step constant.language.boolean'],
      ],
      //     And the phase is same_rank_window
      [
        ['    ', 'meta.step'],
        ['And', 'meta.step keyword.control.step'],
        [' the phase is ', 'meta.step'],
        ['same_rank_window', 'meta.step support.constant.phase'],
      ],
    ],
  },
  {
    name: 'an event with a field and a count; events in order',
    lines: [
      //     Then everyone sees player_snap_fail with user bob 2 times
      [
        ['    ', 'meta.step'],
        ['Then', 'meta.step keyword.control.step'],
        [' everyone sees ', 'meta.step'],
        ['player_snap_fail', 'meta.step entity.name.type.event'],
        [' with ', 'meta.step'],
        ['user', 'meta.step variable.other.property.field'],
        [' bob ', 'meta.step'],
        ['2', 'meta.step constant.numeric'],
        [' times', 'meta.step'],
      ],
      //     And bob sees, in order: player_discard, game_player_turn
      [
        ['    ', 'meta.step'],
        ['And', 'meta.step keyword.control.step'],
        [' ', 'meta.step'],
        ['bob', 'meta.step variable.other.player'],
        [' sees', 'meta.step'],
        [',', 'meta.step punctuation.separator.comma'],
        [' in order: ', 'meta.step'],
        ['player_discard', 'meta.step entity.name.type.event'],
        [',', 'meta.step punctuation.separator.comma'],
        [' ', 'meta.step'],
        ['game_player_turn', 'meta.step entity.name.type.event'],
      ],
    ],
  },
  {
    name: 'a quoted text with escapes',
    lines: [
      //     Then the action is rejected with "not \"your\" turn"
      [
        ['    ', 'meta.step'],
        ['Then', 'meta.step keyword.control.step'],
        [' the action is rejected with ', 'meta.step'],
        ['"', 'meta.step string.quoted.double punctuation.definition.string.begin'],
        ['not ', 'meta.step string.quoted.double'],
        ['\\"', 'meta.step string.quoted.double constant.character.escape'],
        ['your', 'meta.step string.quoted.double'],
        ['\\"', 'meta.step string.quoted.double constant.character.escape'],
        [' turn', 'meta.step string.quoted.double'],
        ['"', 'meta.step string.quoted.double punctuation.definition.string.end'],
      ],
    ],
  },
  {
    name: 'a doc string: its content type, a step keyword in it is text, a placeholder in a JSON string',
    lines: [
      //     Then ann receives:
      [
        ['    ', 'meta.step'],
        ['Then', 'meta.step keyword.control.step'],
        [' ', 'meta.step'],
        ['ann', 'meta.step variable.other.player'],
        [' receives:', 'meta.step'],
      ],
      //       """json
      [
        ['      ', 'string.quoted.docstring'],
        ['"""', 'string.quoted.docstring punctuation.definition.string.begin'],
        ['json', 'string.quoted.docstring storage.type.content-type'],
      ],
      //       Given {"card": "<card>"}
      [
        ['      Given {', 'string.quoted.docstring'],
        ['"card"', 'string.quoted.docstring support.type.property-name'],
        [': ', 'string.quoted.docstring'],
        ['"', 'string.quoted.docstring string.quoted.double'],
        ['<', 'string.quoted.docstring string.quoted.double variable.parameter.placeholder punctuation.definition.placeholder.begin'],
        ['card', 'string.quoted.docstring string.quoted.double variable.parameter.placeholder'],
        ['>', 'string.quoted.docstring string.quoted.double variable.parameter.placeholder punctuation.definition.placeholder.end'],
        ['"', 'string.quoted.docstring string.quoted.double'],
        ['}', 'string.quoted.docstring'],
      ],
      //       """
      [
        ['      ', 'string.quoted.docstring'],
        ['"""', 'string.quoted.docstring punctuation.definition.string.end'],
      ],
      //     And ann knows 5C
      [
        ['    ', 'meta.step'],
        ['And', 'meta.step keyword.control.step'],
        [' ', 'meta.step'],
        ['ann', 'meta.step variable.other.player'],
        [' knows ', 'meta.step'],
        ['5C', 'meta.step constant.other.card'],
      ],
    ],
  },
  {
    name: 'a table row: an escaped pipe, a joker, a cell never closed',
    lines: [
      //       | a\|b | JK |
      [
        ['      ', ''],
        ['|', 'meta.table.row punctuation.separator.table'],
        [' a', 'meta.table.row meta.table.cell'],
        ['\\|', 'meta.table.row meta.table.cell constant.character.escape'],
        ['b ', 'meta.table.row meta.table.cell'],
        ['|', 'meta.table.row punctuation.separator.table'],
        [' ', 'meta.table.row meta.table.cell'],
        ['JK', 'meta.table.row meta.table.cell constant.other.card.joker'],
        [' ', 'meta.table.row meta.table.cell'],
        ['|', 'meta.table.row punctuation.separator.table'],
      ],
      //       | open
      [
        ['      ', ''],
        ['|', 'meta.table.row punctuation.separator.table'],
        [' open', 'meta.table.row invalid.illegal.unclosed-cell'],
      ],
    ],
  },
  {
    name: 'an Examples table: the header row names the columns',
    lines: [
      //     Examples:
      [
        ['    ', 'meta.examples'],
        ['Examples:', 'meta.examples keyword.control.examples'],
      ],
      //       | card | who |
      [
        ['      ', 'meta.examples'],
        ['|', 'meta.examples meta.table.row.header punctuation.separator.table'],
        [' ', 'meta.examples meta.table.row.header meta.table.cell'],
        ['card', 'meta.examples meta.table.row.header meta.table.cell variable.parameter.column'],
        [' ', 'meta.examples meta.table.row.header meta.table.cell'],
        ['|', 'meta.examples meta.table.row.header punctuation.separator.table'],
        [' ', 'meta.examples meta.table.row.header meta.table.cell'],
        ['who', 'meta.examples meta.table.row.header meta.table.cell variable.parameter.column'],
        [' ', 'meta.examples meta.table.row.header meta.table.cell'],
        ['|', 'meta.examples meta.table.row.header punctuation.separator.table'],
      ],
      //       # a comment between rows
      [
        ['      ', 'meta.examples'],
        ['#', 'meta.examples comment.line.number-sign punctuation.definition.comment'],
        [' a comment between rows', 'meta.examples comment.line.number-sign'],
      ],
      //       | A♠   | ann |
      [
        ['      ', 'meta.examples'],
        ['|', 'meta.examples meta.table.row punctuation.separator.table'],
        [' ', 'meta.examples meta.table.row meta.table.cell'],
        ['A♠', 'meta.examples meta.table.row meta.table.cell constant.other.card'],
        ['   ', 'meta.examples meta.table.row meta.table.cell'],
        ['|', 'meta.examples meta.table.row punctuation.separator.table'],
        [' ann ', 'meta.examples meta.table.row meta.table.cell'],
        ['|', 'meta.examples meta.table.row punctuation.separator.table'],
      ],
      //     Scenario: next
      [
        ['    ', 'meta.header.scenario'],
        ['Scenario:', 'meta.header.scenario keyword.control.scenario'],
        [' ', 'meta.header.scenario'],
        ['next', 'meta.header.scenario entity.name.section.scenario'],
      ],
    ],
  },
  {
    name: 'not steps: a word that starts with When, and Gherkin\'s `*`',
    lines: [
      //   Whenever it rains
      [
        ['  Whenever it rains', ''],
      ],
      //     * bob holds 7S
      [
        ['    ', ''],
        ['*', 'invalid.illegal.step-keyword'],
        [' bob holds 7S', ''],
      ],
    ],
  },
];

for (const { name, lines } of cases) {
  test(name, async () => {
    const text = lines.map((tokens) => tokens.map(([t]) => t).join('')).join('\n');
    const got = (await tokenize(text)).map(simplified);
    assert.deepEqual(got, lines);
  });
}

test('a line break of any kind (\\n, \\r\\n, a lone \\r) ends a doc string line as it does for deckspec', async () => {
  for (const eol of ['\n', '\r\n', '\r']) {
    const lines = await tokenize(['    Then ann receives:', '      """', '      Then {}', '      """', '    And ann knows 5C'].join(eol));
    assert.equal(lines.length, 5, JSON.stringify(eol));
    assert.ok(lines[2].tokens.every((t) => t.scopes.includes('string.quoted.docstring' + SUFFIX)), JSON.stringify(eol));
    assert.ok(lines[4].tokens.some((t) => t.text === 'And' && t.scopes.includes('keyword.control.step' + SUFFIX)), JSON.stringify(eol));
  }
});

test('a doc string never closed takes the rest of the file', async () => {
  const lines = await tokenize(['    Then ann receives:', '      """', '      {}', '    And bob does not know 5C', '  Scenario: more'].join('\n'));
  for (const line of lines.slice(2)) {
    for (const token of line.tokens) {
      assert.ok(token.scopes.includes('string.quoted.docstring' + SUFFIX), `${JSON.stringify(token.text)}: ${token.scopes}`);
      assert.ok(!token.scopes.some((s) => s.startsWith('keyword.control.')), `${JSON.stringify(token.text)}: ${token.scopes}`);
    }
  }
});
