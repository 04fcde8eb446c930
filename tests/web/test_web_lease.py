"""The leases of many processes: a commit is fenced by the lease's generation, and Redis's
view of who is alive never takes a lease its owner renews on time."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from foxtrot.web.cluster.lease import Leases
from foxtrot.web.store.event_log import LEASES, Append, LeaseLostError, LoggedEvent, Store


def event(seq: int) -> LoggedEvent:
    return LoggedEvent(seq, "note", None, None, {"n": seq}, None)


def a_table(store: Store, table: str = "t1") -> str:
    store.create_table(table, {"options": {}}, [("person", None), ("person", None)])
    return table


def test_an_owner_that_lost_its_lease_commits_nothing_more(db_url: str) -> None:
    store = Store(db_url)
    table = a_table(store)
    old, new = Leases(store, "old", 30.0), Leases(store, "new", 30.0)
    first = old.claim(table)
    assert first == 1
    store.append_many([Append(table, (event(1),), fence=("old", first))])
    assert new.claim(table) is None  # a live lease is not taken
    with store.engine.begin() as db:  # the old owner stalls past its lease
        db.execute(LEASES.update().values(expires_at=0.0))
    second = new.claim(table)
    assert second == first + 1
    other = a_table(store, "t2")
    theirs = old.claim(other)
    assert theirs is not None
    # the old owner's group commit: its lost table is refused, nothing of it written ...
    with pytest.raises(LeaseLostError) as refused:
        store.append_many(
            [
                Append(table, (event(2),), fence=("old", first)),
                Append(other, (event(1),), fence=("old", theirs)),
            ]
        )
    assert refused.value.tables == (table,)
    loaded = store.load(table)
    assert loaded is not None and [e.seq for e in loaded.events] == [1]
    # ... and the new owner, which read the log after its claim, goes on from it
    store.append_many([Append(table, (event(2),), fence=("new", second))])
    store.append_many([Append(other, (event(1),), fence=("old", theirs))])
    loaded = store.load(table)
    assert loaded is not None and [e.data for e in loaded.events] == [{"n": 1}, {"n": 2}]


def test_redis_alone_never_takes_a_lease_renewed_on_time(db_url: str) -> None:
    store = Store(db_url)
    table = a_table(store)
    owner, other = Leases(store, "owner", 30.0), Leases(store, "other", 30.0)
    assert owner.claim(table) == 1
    other.expire("owner")  # it looks dead to Redis (say, Redis restarted), yet renews
    assert other.owner(table) == "owner"
    assert other.claim(table) is None
    with store.engine.begin() as db:  # it missed a renewal: a third of the lease is left
        db.execute(LEASES.update().values(expires_at=LEASES.c.expires_at - 25.0))
    other.expire("owner")
    assert other.owner(table) is None
    assert other.claim(table) == 2
    with store.engine.connect() as db:
        assert db.execute(sa.select(LEASES.c.owner, LEASES.c.epoch)).one() == ("other", 2)
