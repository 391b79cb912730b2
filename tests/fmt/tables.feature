Feature: Tables, a Rule and an outline
Rule: refusals
Background:
Given a cambia game with players ann, bob
Given the house rules:
|penalty_draw_count|4|
| allow_draw_from_discard_pile | true |
Scenario Outline: a refused draw
When ann does <action>
Then the action is rejected with "<reason>"
Examples: bad arguments
| action | reason |
|draw_stockpile 7S|draw_stockpile takes no arguments|
| draw_stockpile 7♠ | draw_stockpile takes no arguments |
| cambia 7S | cambia takes no \| arguments |
