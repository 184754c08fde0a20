"""Ray tests: a local Ray runtime, and a socket guard that lets through loopback only.

tests/conftest.py refuses every connect() so that no test can reach the network. Ray's
driver talks to its own GCS, raylet and workers over gRPC on 127.0.0.1 (and unix
sockets), so these tests replace that guard, for their own duration only, with one that
allows exactly those addresses and still refuses (and records) anything else. The Ray
processes themselves are started with their node address on loopback
(harp_desktop/cluster/runtime.py); test_ray_index.py checks where they listen.
"""

from __future__ import annotations

import ipaddress
import socket

import pytest

_REAL = {
    "connect": socket.socket.connect,
    "connect_ex": socket.socket.connect_ex,
    "create_connection": socket.create_connection,
    "getaddrinfo": socket.getaddrinfo,
}
REFUSED: list[object] = []


def _local(host) -> bool:
    if isinstance(host, bytes):
        host = host.decode()
    if host in ("localhost", "", None):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _guard(mp: pytest.MonkeyPatch) -> None:
    def check(address) -> None:
        if isinstance(address, str | bytes):
            return  # an AF_UNIX path: a file on this machine
        if not _local(address[0]):
            REFUSED.append(address)
            raise AssertionError(f"network access attempted: {address}")

    def connect(self, address):
        if self.family != socket.AF_UNIX:
            check(address)
        return _REAL["connect"](self, address)

    def connect_ex(self, address):
        if self.family != socket.AF_UNIX:
            check(address)
        return _REAL["connect_ex"](self, address)

    def create_connection(address, *args, **kwargs):
        check(address)
        return _REAL["create_connection"](address, *args, **kwargs)

    def getaddrinfo(host, *args, **kwargs):
        check((host,))
        return _REAL["getaddrinfo"](host, *args, **kwargs)

    mp.setattr(socket.socket, "connect", connect)
    mp.setattr(socket.socket, "connect_ex", connect_ex)
    mp.setattr(socket, "create_connection", create_connection)
    mp.setattr(socket, "getaddrinfo", getaddrinfo)


@pytest.fixture(autouse=True)
def loopback_only(no_network, monkeypatch):
    """Runs after tests/conftest.py's no_network and narrows it to 'loopback allowed'."""
    _guard(monkeypatch)
    yield
    assert not REFUSED, f"non-loopback connections attempted: {REFUSED}"


@pytest.fixture(scope="package")
def ray_local(harp_data):
    """One local Ray runtime for tests/cluster (starting one takes ~10 s on 2 cores)."""
    import os

    from harp_desktop.cluster.runtime import ray_runtime

    threads = int(os.environ.get("OMP_NUM_THREADS") or len(os.sched_getaffinity(0)))
    with pytest.MonkeyPatch.context() as mp:
        _guard(mp)
        # Logical CPUs: two workers with as many threads as this process uses, so their
        # transcripts match a local run's to the millisecond (see docs/decisions.md).
        with ray_runtime(None, num_cpus=2 * threads) as ray:
            yield ray, threads
    assert not REFUSED, f"non-loopback connections attempted: {REFUSED}"
