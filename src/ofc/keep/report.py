"""A kept match as one JSON document: what the keep page shows (and the share link too)."""

from __future__ import annotations

from typing import Any

from ofc.keep.document import amount, book_document
from ofc.keep.replay import Keeping, PlayedHand
from ofc.rules.ranking import hand_name
from ofc.rules.rulebook import HAND_CARDS
from ofc.series.ledger import amount_text


def hand_report(hand: PlayedHand) -> dict[str, Any]:
    """One settled hand: button, order, fantasies, each player's rows and every pair in parts."""
    players: dict[str, Any] = {}
    for name in hand.names:
        entry, line = hand.entries[name], hand.line(name)
        keys = (line.keys.top, line.keys.middle, line.keys.bottom)
        players[name] = {
            "entry": entry.to_json(),
            "dead": entry.dead,
            "fouled": line.fouled,
            "hands": None if entry.dead else [hand_name(key) for key in keys],
            "royalties": line.royalties.to_dict(),
            "earned": line.fantasy,
            "points": amount(hand.points[name]),
            "before_limit": line.points,
        }
    pairs = []
    order = hand.order
    for position, name in enumerate(order):
        for other in order[position + 1 :]:
            part = hand.pair(name, other)
            pairs.append(
                {
                    "a": name,
                    "b": other,
                    "rows": list(part.rows),
                    "scoop": part.scoop,
                    "royalties": part.royalties,
                    "total": part.total,
                }
            )
    return {
        "number": hand.number + 1,
        "button": hand.button,
        "order": list(order),
        "fantasy": hand.fantasy,
        "fouled": hand.fouled,
        "players": players,
        "pairs": pairs,
        "points": {name: amount(value) for name, value in hand.points.items()},
    }


def keeping_report(keeping: Keeping) -> dict[str, Any]:
    """The whole book: its document, every hand, what comes next, totals and settlement."""
    rules = keeping.book.rules
    nxt = None
    if not keeping.over:
        discards = sum(street.discards for street in rules.spec.streets)
        nxt = {
            "number": len(keeping.hands) + 1,
            "button": keeping.next_button,
            "order": list(keeping.next_order),
            "fantasy": keeping.next_fantasy,
            "discards": {
                name: (keeping.next_fantasy[name] - HAND_CARDS if name in keeping.next_fantasy else discards)
                for name in keeping.next_order
            },
        }
    return {
        "book": book_document(keeping.book),
        "variant": str(rules.variant),
        "scoring": str(rules.scoring),
        "point_value": amount_text(rules.point_value),
        "loss_limit": None if rules.loss_limit is None else amount_text(rules.loss_limit),
        "hands": [hand_report(hand) for hand in keeping.hands],
        "next": nxt,
        "over": keeping.over,
        "left": keeping.left,
        "totals": {
            "points": {name: amount(value) for name, value in keeping.points.items()},
            "money": {name: amount(value) for name, value in keeping.money.items()},
        },
        "settlement": [
            {"from": transfer.payer, "to": transfer.payee, "amount": amount(transfer.amount)}
            for transfer in keeping.settlement()
        ],
    }
