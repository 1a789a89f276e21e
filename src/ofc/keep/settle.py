"""Who pays whom at the end: the fewest transfers that settle every player's net amount.

The players are split into the most groups whose amounts add up to zero (an exact search:
tables hold at most four players); each group of ``k`` players then settles in ``k - 1``
transfers, the largest debtor paying the largest creditor first. Splitting into ``g`` groups
needs ``n - g`` transfers for ``n`` players owed or owing something, and no plan can do
better, since every transfer joins at most two of the groups a plan's payments connect.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from ofc.rules.errors import MatchError


@dataclass(frozen=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` (exact, positive)."""

    payer: str
    payee: str
    amount: Fraction


def fewest_transfers(amounts: Mapping[str, Fraction]) -> list[Transfer]:
    """Transfers settling ``amounts`` (name -> net won, adding up to zero), fewest possible.

    The order of ``amounts`` breaks ties, so the result is reproducible.
    """
    if sum(amounts.values(), Fraction(0)) != 0:
        raise MatchError("the amounts to settle do not add up to zero")
    open_ = [name for name, amount in amounts.items() if amount != 0]
    transfers: list[Transfer] = []
    for group in _most_groups(open_, amounts):
        transfers.extend(_settle_group(group, amounts))
    return transfers


def _most_groups(names: Sequence[str], amounts: Mapping[str, Fraction]) -> list[list[str]]:
    """``names`` split into the most zero-sum groups (the first name's group as small as possible)."""
    if not names:
        return []
    first, rest = names[0], list(names[1:])
    best: list[list[str]] | None = None
    for size in range(1, len(rest) + 1):
        for others in combinations(rest, size):
            if amounts[first] + sum((amounts[name] for name in others), Fraction(0)) != 0:
                continue
            left = [name for name in rest if name not in others]
            split = [[first, *others], *_most_groups(left, amounts)]
            if best is None or len(split) > len(best):
                best = split
    if best is None:  # only reached for amounts that do not add up to zero
        raise MatchError("the amounts to settle do not add up to zero")
    return best


def _settle_group(group: Sequence[str], amounts: Mapping[str, Fraction]) -> list[Transfer]:
    """``len(group) - 1`` transfers (or fewer) settling a zero-sum group."""
    balance = {name: amounts[name] for name in group}
    transfers: list[Transfer] = []
    while any(balance.values()):
        payer = min(group, key=lambda name: (balance[name], group.index(name)))
        payee = max(group, key=lambda name: (balance[name], -group.index(name)))
        amount = min(-balance[payer], balance[payee])
        transfers.append(Transfer(payer, payee, amount))
        balance[payer] += amount
        balance[payee] -= amount
    return transfers
