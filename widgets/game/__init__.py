"""The live views of one game, each bound to a :class:`~widgets.game.session.GameSession`: the
board, the decision panel, the log, the players' tableaus, scores, characters, hints, odds, the
timeline, the rules view, the language selector, the projector's banner and the exercise card.
They ask the engine for every rule and decide none themselves."""
