# A file laid out by hand, badly: indentation, spacing, blank lines and trailing spaces.
@cambia   @smoke
Feature:    Drawing   



    Background:
Given a cambia game with players ann, bob   


   @rule:CAM-DRAW-1
      Scenario:ann draws
  # the card stays apart from the hand
        When ann does draw_stockpile
  Then   the phase is awaiting_discard


