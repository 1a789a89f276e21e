"""PostgreSQL for the tests: a fresh database per test, and a proxy that can play a stopped server."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError

SETUP = 'run `eval "$(bash scripts/services)"` first (scripts/test does)'


def postgres_base() -> URL:
    """The test cluster's URL (pg8000 driver); fails the test saying what is missing."""
    url = os.environ.get("OFC_TEST_POSTGRES_URL")
    if not url:
        pytest.fail(f"OFC_TEST_POSTGRES_URL is not set: {SETUP}")
    return make_url(url).set(drivername="postgresql+pg8000")


@contextmanager
def fresh_database() -> Iterator[URL]:
    """A new, empty database on the test cluster, dropped afterwards."""
    base = postgres_base()
    name = f"ofc_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT", connect_args={"timeout": 10})
    try:
        with admin.connect() as db:
            db.execute(text(f"CREATE DATABASE {name}"))
    except DBAPIError as error:
        admin.dispose()
        where = f"{base.host}:{base.port}"
        pytest.fail(f"PostgreSQL at {where} (OFC_TEST_POSTGRES_URL) does not answer: {error.orig}; {SETUP}")
    try:
        yield base.set(database=name)
    finally:
        with admin.connect() as db:
            db.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


class Proxy:
    """A TCP relay on 127.0.0.1 to a server; ``stop`` cuts every connection and refuses new ones
    (the server, seen from the client, went down), ``start`` serves again on the same port."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()

    def start(self) -> Proxy:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen()
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        with suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        """Close the listener and every relayed connection."""
        if self._listener is not None:
            with suppress(OSError):  # wakes the thread blocked in accept (a bare close would not)
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
            self._listener = None
        with self._lock:
            ends, self._open = self._open, set()
        for end in ends:
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()


class PrivateCluster:
    """A PostgreSQL cluster of the test's own (``initdb`` in a fresh folder under /tmp), so it can
    really be stopped (``pg_ctl stop -m immediate``) and started again without touching the shared one.

    Run as root (as scripts/test is), the cluster's programs run as the ``postgres`` user."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda path: int(path.split("/")[-2]))
        if not found:
            pytest.fail(f"PostgreSQL's programs are not installed: {SETUP}")
        self.bin = Path(found[-1])
        self.folder = Path(tempfile.mkdtemp(prefix="ofc-pg-own-"))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])

    @property
    def url(self) -> str:
        return f"postgresql://ofc@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        program = [str(self.bin / command[0]), *command[1:]]
        if os.geteuid() == 0:
            program = ["runuser", "-u", "postgres", "--", *program]
        subprocess.run(program, check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, timeout=180)

    def __enter__(self) -> PrivateCluster:
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self._run("initdb", "-D", str(self.folder / "data"), "-U", "ofc", "-A", "trust", "-E", "UTF8")
        self.start()
        return self

    def start(self) -> None:
        """Start the cluster and wait until it takes connections."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        data, log = str(self.folder / "data"), str(self.folder / "log")
        self._run("pg_ctl", "-D", data, "-l", log, "-w", "-t", "120", "-o", options, "start")

    def crash(self) -> None:
        """``pg_ctl stop -m immediate``: every server process ends at once, as in a crash (recovered at start)."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")

    def __exit__(self, *_exc: object) -> None:
        with suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
