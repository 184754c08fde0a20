"""Starting or joining a Ray runtime without anything leaving the machine by accident.

Without an address a private, local runtime starts on the loopback interface: no
dashboard, no usage statistics, no metrics exporter listening beyond 127.0.0.1. With an
address HARP joins the cluster the user named; what crosses the network is then the
user's choice, and only Ray's own traffic (tasks, objects) does.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

CLUSTER_ERROR = ("the Ray engine needs the optional 'cluster' extra: "
                 ".venv/bin/pip install -c installer/constraints.txt -e '.[cluster]'")


LOCAL_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"  # "0": node address = loopback (ray._private.services)


class ClusterError(RuntimeError):
    """Ray is missing or its runtime cannot be reached; the message is for the user."""


def _quiet_env() -> None:
    # Read by Ray at import and by every process it starts, so set before importing it.
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    os.environ.setdefault("RAY_DISABLE_DOCKER_CPU_WARNING", "1")
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    os.environ.setdefault("RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO", "0")


def import_ray():
    _quiet_env()
    try:
        import ray
    except ImportError:
        raise ClusterError(CLUSTER_ERROR) from None
    return ray


@contextmanager
def ray_runtime(address: str | None = None, num_cpus: int | None = None) -> Iterator[object]:
    """Yield the ``ray`` module with a runtime up; a runtime started here is stopped on exit."""
    ray = import_ray()
    cluster_default = ray._private.ray_constants.ENABLE_RAY_CLUSTER
    started = False
    if not ray.is_initialized():
        common = {"include_dashboard": False, "logging_level": "ERROR", "log_to_driver": False,
                  "configure_logging": True}
        try:
            if address:
                ray.init(address=address, **common)
            else:
                # Ray turns 127.0.0.1 into the machine's outward address unless cluster mode is off;
                # with it off, the GCS, raylet and workers listen on loopback only.
                os.environ[LOCAL_ONLY] = "0"
                ray._private.ray_constants.ENABLE_RAY_CLUSTER = False  # read at import; reset for this run
                # Ray starts workers at nice 15; a local run competes like the local pipeline instead.
                ray.init(num_cpus=num_cpus or os.cpu_count() or 1, _node_ip_address="127.0.0.1",
                         num_gpus=0, _system_config={"worker_niceness": 0}, **common)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ClusterError(f"cannot start or reach Ray{f' at {address}' if address else ''}: "
                               f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()
        if not address:
            os.environ.pop(LOCAL_ONLY, None)
            ray._private.ray_constants.ENABLE_RAY_CLUSTER = cluster_default


def cluster_cpus(ray) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))
