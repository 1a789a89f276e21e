"""The terminal face: one person plays a match against bots at the terminal (``ofc play``).

``commands`` reads what the player types, ``placing`` holds the action being built, ``render``
and ``showdown`` draw the screen from the player's view, ``reader`` reads lines with a
timeout, ``store`` saves hand histories, ``turn`` runs one decision and ``game`` the match.
"""
