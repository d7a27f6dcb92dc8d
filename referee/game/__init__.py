"""The rules of Spades, pure: cards, rule options, deals, the engine, scoring, the per-seat view.

Nothing in this package does I/O or imports anything outside it; a test
enforces it. State + action -> new state (:func:`referee.game.engine.step`).
"""
