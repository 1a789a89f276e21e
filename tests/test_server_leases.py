"""Table leases on SQLite's clock: claims, epochs, renewal, expiry and the batched lookup the relays use."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, insert

from ofc.server.db.engine import make_engine
from ofc.server.db.leases import Lease, Leases
from ofc.server.db.schema import PLAYING, metadata, tables


def _engine(tmp_path: Path) -> Engine:
    """A database with tables 1, 2, 3 and 7 being played."""
    engine = make_engine(f"sqlite:///{tmp_path / 'leases.db'}")
    metadata.create_all(engine)
    with engine.begin() as db:
        for number in (1, 2, 3, 7):
            db.execute(insert(tables).values(id=number, name=f"t{number}", rules="{}", bots="[]", status=PLAYING))
    return engine


def test_a_claim_is_refused_while_another_node_holds_the_table_and_each_claim_raises_the_epoch(
    tmp_path: Path,
) -> None:
    repository = Leases(_engine(tmp_path))
    assert repository.claim(7, "a", 60) == 1
    assert repository.claim(7, "b", 60) is None  # a's lease runs
    assert repository.claim(7, "a", 60) == 2  # a again (say it restarted): a new epoch
    assert repository.lease(7) == Lease(7, "a", 2, True)
    assert repository.renew("a", 60) == {7: 2}
    repository.release("a", 7)
    assert repository.claim(7, "b", 60) == 3


def test_an_expired_lease_may_be_claimed_by_another_node(tmp_path: Path) -> None:
    repository = Leases(_engine(tmp_path))
    assert repository.claim(7, "a", -1) == 1  # already over
    assert repository.lease(7) == Lease(7, "a", 1, False)
    assert repository.claim(7, "b", 60) == 2
    assert repository.renew("a", 60) == {}  # a holds nothing any more


def test_the_leases_of_many_tables_in_one_lookup(tmp_path: Path) -> None:
    repository = Leases(_engine(tmp_path))
    assert repository.claim(1, "a", 60) == 1
    assert repository.claim(2, "b", -1) == 1
    assert repository.leases_of({1, 2, 3}) == {1: Lease(1, "a", 1, True), 2: Lease(2, "b", 1, False)}
    assert repository.leases_of(set()) == {}
    assert repository.leases_of({2}) == {2: repository.lease(2)}
