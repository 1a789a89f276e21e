"""Bot tournaments: one played to the end, or many with each bot's prize and places.

One tournament (``play_tournament``) seats one bot per seat (``players`` = number of bots),
every bot buying in for ``buy_in``, and plays ``ofc.series.tournament.Tournament`` through the
engine until one bot is left. In tournament ``index`` of a run, bot ``b`` sits in seat
``(b + index) % players`` (so over many tournaments every bot sits everywhere), the first
button is drawn from the run's seed, and every deck and bot seed derives from the run's seed,
the tournament and the hand (``ofc.engine.deals.derive_seed``): a run is reproducible given its seed
whatever the number of workers (for bots bounded by rollouts rather than seconds).

Statistics over a run (``repeat``): each bot's mean prize with a 95% normal interval over the
tournaments (``ofc.sim.simulate.mean_ci95``), and for each place the share of tournaments the bot
finished there with a 95% Wilson score interval. A place shared by ``k`` tied players counts
``1 / k`` for each of the places they share, so every bot's shares add up to 1.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ofc.bots import make_bot
from ofc.bots.spec import bot_names
from ofc.engine.deals import derive_seed
from ofc.engine.hand import Hand
from ofc.rules.errors import RulesError
from ofc.rules.rulebook import Rules
from ofc.series.session import Session, play_hand
from ofc.series.tournament import Tournament, TournamentHand
from ofc.sim.processes import process_pool
from ofc.sim.simulate import Z95, mean_ci95, table_rules, warm_up

BUTTON_PART = -1
"""``derive_seed(seed, index, BUTTON_PART)`` draws the first button."""
BOT_PART = -2
"""``derive_seed(seed, index, BOT_PART - bot)`` seeds a bot (hand numbers are >= 0)."""


@dataclass(frozen=True)
class Standing:
    """How one bot finished: ``tied`` bots share places ``place .. place + tied - 1``."""

    name: str
    seat: int
    place: int
    tied: int
    prize: Decimal
    hands_played: int
    out_in_hand: int | None
    """The hand (from 1) in which the bot lost its last chip; None for the winner."""

    def to_dict(self) -> dict[str, object]:
        """The ``--json`` entry: the prize as exact decimal text (``"66.66"``)."""
        return {
            "name": self.name,
            "place": self.place,
            "prize": str(self.prize),
            "hands_played": self.hands_played,
            "out_in_hand": self.out_in_hand,
        }


@dataclass(frozen=True)
class LevelPlayed:
    """One level as played: its number (from 1), chips per point, hands, and what it left.

    ``chips`` are each bot's chips at the end of the level (bot order); ``out`` the bots
    knocked out during it.
    """

    level: int
    chips_per_point: int
    hands: int
    chips: tuple[int, ...]
    out: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        """The ``--json`` entry of the level."""
        return {"level": self.level, "chips_per_point": self.chips_per_point, "hands": self.hands}


@dataclass(frozen=True)
class TournamentRun:
    """One bot tournament played to the end; tuples are in bot order."""

    index: int
    pool: Decimal
    hands: int
    standings: tuple[Standing, ...]
    levels: tuple[LevelPlayed, ...]

    def to_dict(self) -> dict[str, object]:
        """``{"places": [...], "hands", "levels": [...]}``, places best first (ties by bot order)."""
        ordered = sorted(self.standings, key=lambda s: s.place)
        return {
            "places": [s.to_dict() for s in ordered],
            "hands": self.hands,
            "levels": [level.to_dict() for level in self.levels],
        }


HandHook = Callable[[Tournament, TournamentHand, Hand], None]
"""Called after every hand with the tournament, its record of the hand and the hand played."""


def play_tournament(
    rules: Rules, specs: Sequence[str], *, seed: int, index: int = 0, on_hand: HandHook | None = None
) -> TournamentRun:
    """Play tournament ``index`` of the run ``seed`` between the bots ``specs`` (spawn-safe)."""
    specs = tuple(specs)
    table = table_rules(rules, len(specs))
    warm_up(table, specs)
    players = len(specs)
    seat_of = tuple((bot + index) % players for bot in range(players))
    bot_at = {seat: bot for bot, seat in enumerate(seat_of)}
    bots = [make_bot(spec, seed=derive_seed(seed, index, BOT_PART - b)) for b, spec in enumerate(specs)]
    tournament = Tournament(table, button=derive_seed(seed, index, BUTTON_PART) % players)
    session = Session(tournament)
    while not session.finished:
        hand = session.deal(seed=derive_seed(seed, index, len(tournament.hands)))
        play_hand(hand, [bots[bot_at[seat]] for seat in session.plan.seats])
        record = session.settle()
        assert isinstance(record, TournamentHand)
        if on_hand is not None:
            on_hand(tournament, record, hand)
    return summarise_run(tournament, bot_names(specs), seat_of, index)


def summarise_run(tournament: Tournament, names: Sequence[str], seat_of: Sequence[int], index: int) -> TournamentRun:
    """The standings and levels of a finished tournament, in bot order."""
    hands = tournament.hands
    prizes = tournament.prizes()
    finishes = tournament.finishes
    played = [0] * tournament.entrants
    out: dict[int, int] = {}
    for number, hand in enumerate(hands, 1):
        for seat in hand.plan.seats:
            played[seat] += 1
        for seat in hand.busted:
            out[seat] = number
    standings = tuple(
        Standing(name, seat, finishes[seat].place, finishes[seat].tied, prizes[seat], played[seat], out.get(seat))
        for name, seat in zip(names, seat_of, strict=True)
    )
    levels: list[LevelPlayed] = []
    first = 0
    for number, hand in enumerate(hands, 1):
        if number < len(hands) and hands[number].level == hand.level:
            continue
        busted = {seat for seat, when in out.items() if first < when <= number}
        chips = tuple(hand.chips[seat] for seat in seat_of)
        gone = tuple(bot for bot, seat in enumerate(seat_of) if seat in busted)
        levels.append(LevelPlayed(hand.level + 1, hand.chips_per_point, number - first, chips, gone))
        first = number
    return TournamentRun(index, tournament.prize_pool, len(hands), standings, tuple(levels))


def play_chunk(rules: Rules, specs: Sequence[str], seed: int, indices: Sequence[int]) -> list[TournamentRun]:
    """Tournaments ``indices`` of the run ``seed`` (for a worker process)."""
    return [play_tournament(rules, specs, seed=seed, index=index) for index in indices]


@dataclass(frozen=True)
class PlaceShare:
    """The share of tournaments a bot finished in ``place``, with its 95% Wilson interval."""

    place: int
    share: float
    low: float
    high: float


@dataclass(frozen=True)
class BotRecord:
    """A bot's figures over a run of tournaments."""

    name: str
    mean_prize: float
    ci95: float
    places: tuple[PlaceShare, ...]
    mean_hands: float

    def to_dict(self) -> dict[str, object]:
        """The ``--repeat --json`` entry of the bot."""
        return {
            "name": self.name,
            "mean_prize": self.mean_prize,
            "ci95": self.ci95,
            "places": [{"place": p.place, "share": p.share, "ci95": [p.low, p.high]} for p in self.places],
            "mean_hands_played": self.mean_hands,
        }


@dataclass(frozen=True)
class RepeatResult:
    """A run of ``tournaments`` tournaments from ``seed``: per-bot records and mean length."""

    tournaments: int
    seed: int
    buy_in: Decimal
    mean_hands: float
    bots: tuple[BotRecord, ...]

    def to_dict(self) -> dict[str, object]:
        """The ``--repeat --json`` document."""
        return {
            "tournaments": self.tournaments,
            "seed": self.seed,
            "buy_in": str(self.buy_in),
            "mean_hands": self.mean_hands,
            "bots": [bot.to_dict() for bot in self.bots],
        }


def wilson(share: float, count: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``share`` observed over ``count`` trials."""
    if count == 0:
        return 0.0, 1.0
    z2 = Z95 * Z95
    centre = (share + z2 / (2 * count)) / (1 + z2 / count)
    half = Z95 * math.sqrt(share * (1 - share) / count + z2 / (4 * count * count)) / (1 + z2 / count)
    return max(0.0, min(share, centre - half)), min(1.0, max(share, centre + half))  # rounding kept out


def place_weights(standing: Standing, players: int) -> list[Fraction]:
    """How much of each place (1..players) a finish counts: ``1 / tied`` for each shared place."""
    weights = [Fraction(0)] * players
    for place in range(standing.place, standing.place + standing.tied):
        weights[place - 1] = Fraction(1, standing.tied)
    return weights


def bot_record(bot: int, runs: Sequence[TournamentRun]) -> BotRecord:
    """One bot's record over ``runs`` (see the module docstring)."""
    mine = [run.standings[bot] for run in runs]
    players = len(runs[0].standings)
    mean, ci = mean_ci95([float(s.prize) for s in mine], [1] * len(mine))
    totals = [Fraction(0)] * players
    for standing in mine:
        totals = [t + w for t, w in zip(totals, place_weights(standing, players), strict=True)]
    places = []
    for place, total in enumerate(totals, 1):
        share = float(total / len(mine))
        places.append(PlaceShare(place, share, *wilson(share, len(mine))))
    return BotRecord(mine[0].name, mean, ci, tuple(places), sum(s.hands_played for s in mine) / len(mine))


Progress = Callable[[int, int], None]
"""Called with (tournaments done, tournaments in all)."""


def repeat(
    rules: Rules,
    specs: Sequence[str],
    tournaments: int,
    *,
    seed: int,
    workers: int = 1,
    progress: Progress | None = None,
    chunk: int = 4,
) -> RepeatResult:
    """Play ``tournaments`` bot tournaments from ``seed`` and summarise each bot's results."""
    if tournaments < 1:
        raise RulesError("--repeat must be at least 1, not {tournaments}", tournaments=tournaments)
    specs = tuple(s.strip() for s in specs)
    for spec in specs:
        make_bot(spec)  # fail early, in this process, on a bad name or option
    table = table_rules(rules, len(specs))
    Tournament(table, button=0)  # a payout list longer than the table fails here
    parts = [range(start, min(start + chunk, tournaments)) for start in range(0, tournaments, chunk)]
    runs: list[TournamentRun] = []
    if workers <= 1:
        for part in parts:
            runs.extend(play_chunk(table, specs, seed, part))
            if progress is not None:
                progress(len(runs), tournaments)
    else:
        with process_pool(workers) as pool:
            futures = [pool.submit(play_chunk, table, specs, seed, part) for part in parts]
            for future in as_completed(futures):
                runs.extend(future.result())
                if progress is not None:
                    progress(len(runs), tournaments)
    runs.sort(key=lambda run: run.index)
    records = tuple(bot_record(bot, runs) for bot in range(len(specs)))
    mean_hands = sum(run.hands for run in runs) / len(runs)
    return RepeatResult(tournaments, seed, table.buy_in, mean_hands, records)
