"""docs/cluster.md's recipes, run as written (issue 15 item 2, issue 25 item 4).

A real two-node Ray cluster started with `ray start` (a head and a second node, token
authentication on) inside a network namespace of its own (the docs' `netns` recipe), a
driver joining it by address, and `ray job submit`: the results reach the output
directory and equal an in-process run. While the cluster is up, with a driver's task
running on each node, every listening socket in the namespace is listed and any address
the docs do not promise for it (127.0.0.1) fails the test; no process of the cluster may
be outside the namespace, and the docs' stop recipe must stop every one of them. A
second test starts one node on the host's own network with Ray's multi-node mode off
(the docs' other loopback way): its sockets on 127.0.0.1 only, a second node refused, a
driver needing the same switch. Both need the cluster extra (`pip install -e
'.[test,cluster]'`: ray[default] for the job server) and user namespaces; a few minutes,
so they run with CARCSIM_CLUSTER=1 or in the soak (CARCSIM_SOAK=1).

The cloud recipe's launcher config (docs/examples/cluster_aws.yaml) is checked in every
run: Ray's own defaults and schema, as `ray up` applies them before it calls AWS.

Isolation on a shared machine: free ports, a private temp dir and HOME (so the token
and `ray_current_cluster` are this test's own), and at the end only the processes of
this cluster are stopped, by pid (`ray stop` would stop every Ray on the machine)."""

import copy
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pytest
from test_tournament import SMALL, same, small, tables

from sim.tournament.run import run_experiment

ROOT = Path(__file__).resolve().parent.parent
CLOUD = ROOT / "docs" / "examples" / "cluster_aws.yaml"
needs_cluster = pytest.mark.skipif(
    "1" not in (os.environ.get("CARCSIM_CLUSTER"), os.environ.get("CARCSIM_SOAK")),
    reason="set CARCSIM_CLUSTER=1 (or CARCSIM_SOAK=1)")
# what docs/cluster.md promises for a test cluster (its table's last column): 127.0.0.1,
# also as the IPv4-mapped address of a dual-stack socket; never ::, 0.0.0.0 or another
LOOPBACK = {"127.0.0.1", "::ffff:127.0.0.1"}

# every listening inet socket of the network namespace this runs in, with its process
LISTENING = """
import json, psutil
rows = []
for c in psutil.net_connections("inet"):
    if c.status == psutil.CONN_LISTEN:
        try:
            name = psutil.Process(c.pid).name() if c.pid else "?"
        except psutil.Error:
            name = "?"
        rows.append([c.pid, name, c.laddr.ip, c.laddr.port])
print(json.dumps(rows))
"""

# a driver with a task held on each node (one CPU each), so that workers and a driver
# listen while the sockets are listed
HOLD = """
import logging, os, sys, time
from pathlib import Path
import ray
ray.init(address=sys.argv[1], logging_level=logging.ERROR)

@ray.remote(num_cpus=1)
def hold(marks):
    Path(marks, str(os.getpid())).touch()
    while not Path(marks, "release").exists():
        time.sleep(0.2)
    return ray.get_runtime_context().get_node_id()

print(len(set(ray.get([hold.remote(sys.argv[2]) for _ in range(2)]))))
"""


def recipes() -> dict[str, str]:
    text = (ROOT / "docs" / "cluster.md").read_text()
    found = dict(re.findall(r"<!-- recipe: (\w+) -->\n```sh\n(.*?)```", text, re.S))
    assert {"netns", "head", "node", "driver", "job", "stop"} <= set(found), sorted(found)
    return found


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def inside(ns):
    """The command prefix that runs a command in the namespace held by process `ns`."""
    return ([] if ns is None else
            ["nsenter", "--target", str(ns), "--user", "--net", "--uts", "--preserve-credentials", "--"])


def bash(script, env, ns=None, timeout=300):
    return subprocess.run([*inside(ns), "bash", "-euo", "pipefail", "-c", script], env=env,
                          capture_output=True, text=True, timeout=timeout, cwd=env["HOME"])


def run(args, env, ns=None, timeout=300):
    return subprocess.run([*inside(ns), *map(str, args)], env=env, capture_output=True,
                          text=True, timeout=timeout)


def netns(pid):
    try:
        return os.readlink(f"/proc/{pid}/ns/net")
    except OSError:
        return None


def in_namespace(link):
    """Processes (not zombies) whose network namespace is `link`."""
    found = []
    for p in psutil.process_iter(["name", "status"]):
        if p.info["status"] != psutil.STATUS_ZOMBIE and netns(p.pid) == link:
            found.append(p)
    return found


def cluster_processes(temp):
    """The processes of the cluster whose --temp-dir is `temp`, found as the docs' stop
    recipe finds them: their command lines name the temp dir, or (the Ray Client server)
    the GCS address; and their descendants (agents and workers)."""
    try:
        gcs = (temp / "ray_current_cluster").read_text().strip()
    except OSError:
        gcs = None
    found = {}
    for p in psutil.process_iter(["cmdline"]):
        args = " ".join(p.info["cmdline"] or ())
        client = gcs and "ray.util.client.server" in args and f"--address={gcs}" in args
        if p.pid != os.getpid() and (str(temp) in args or client):
            found[p.pid] = p
    for p in list(found.values()):
        try:
            found.update((c.pid, c) for c in p.children(recursive=True))
        except psutil.Error:
            pass
    return list(found.values())


def listening(procs):
    rows = []
    for p in procs:
        try:
            rows += [[p.pid, p.name(), c.laddr.ip, c.laddr.port]
                     for c in p.net_connections(kind="inet") if c.status == psutil.CONN_LISTEN]
        except psutil.Error:
            continue
    return rows


def holding(pid):
    """Whether `pid` is the netns recipe's process, there to hold the namespace."""
    try:
        return psutil.Process(pid).name() == "sleep"
    except psutil.Error:
        return False


def kill(procs):
    for p in procs:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(procs, timeout=10)


def alive_nodes(env, address, ns=None):
    probe = ("import ray, logging; ray.init(address=%r, logging_level=logging.ERROR); "
             "print(sum(n['Alive'] for n in ray.nodes()))" % address)
    r = run([sys.executable, "-c", probe], env, ns, timeout=120)
    return int(r.stdout.strip() or 0)


def routable_address():
    """The address Ray puts in place of 127.0.0.1 here (the source of a route to 8.8.8.8)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("8.8.8.8", 53))
            return s.getsockname()[0]
    except OSError:
        return None


class Cluster:
    """A private HOME (with a token), temp dir, free ports and configs for one test."""

    def __init__(self, tmp_path):
        try:
            import aiohttp  # noqa: F401 - the job server's; asked for, so missing is a failure
        except ImportError:
            pytest.fail("the cluster test needs the cluster extra: pip install -e '.[test,cluster]'")
        self.steps = recipes()
        self.base = Path(tempfile.mkdtemp(prefix="crc", dir="/tmp"))  # short: Ray's socket paths
        self.home, self.temp = self.base / "home", self.base / "ray"
        (self.home / ".ray").mkdir(parents=True)
        (self.home / ".ray" / "auth_token").write_text(secrets.token_hex(32))
        (self.home / ".ray" / "auth_token").chmod(0o600)
        self.gcs, self.dash, self.client, worker, *self.agents = free_ports(8)
        self.common = (f"--num-cpus 1 --disable-usage-stats "
                       f"--min-worker-port {worker} --max-worker-port {worker + 200}")
        env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
        env.update(HOME=str(self.home), HEAD="127.0.0.1", NODE="127.0.0.1",
                   GCS_PORT=str(self.gcs), DASHBOARD_PORT=str(self.dash),
                   CLIENT_PORT=str(self.client), CLUSTER_TMP=str(self.temp),
                   PATH=f"{Path(sys.executable).parent}:{env['PATH']}", OUT=str(tmp_path / "out"),
                   CONFIG=str(tmp_path / "small.toml"), JOB_DIR=str(tmp_path / "job"))
        self.env = env
        self.address = f"127.0.0.1:{self.gcs}"
        (tmp_path / "small.toml").write_text(SMALL)
        (tmp_path / "job").mkdir()
        (tmp_path / "job" / "job.toml").write_text(SMALL)  # relative to the uploaded directory
        run_experiment(small(tmp_path), tmp_path / "ref", workers=0)

    def start(self, name, env, ns=None):
        """The head or node recipe, each node with an agent port of its own (docs: "A
        second node on the same host")."""
        i = name == "node"
        extra = (f"{self.common} --dashboard-agent-listen-port {self.agents[i]} "
                 f"--metrics-export-port {self.agents[2 + i]}")
        return bash(self.steps[name], dict(env, RAY_START_EXTRA=extra), ns)


@pytest.mark.soak
@needs_cluster
def test_the_documented_recipes_on_a_two_node_cluster_in_a_network_namespace(tmp_path):
    c = Cluster(tmp_path)
    env, steps = c.env, c.steps
    ns = link = None
    try:
        pid_file = c.base / "netns.pid"
        r = bash(steps["netns"], dict(env, NS_PID=str(pid_file)))
        ns = int(pid_file.read_text()) if r.returncode == 0 and pid_file.exists() else None
        if ns is None or not holding(ns):
            pytest.fail(f"the test cluster needs user and network namespaces (unshare, nsenter, "
                        f"ip): {r.stderr.strip()[-500:]}")
        link = netns(ns)
        assert link != netns(os.getpid())

        for name in ("head", "node"):
            r = c.start(name, env, ns)
            assert r.returncode == 0, (name, r.stdout[-2000:], r.stderr[-2000:])
        token_env = dict(env, RAY_AUTH_MODE="token")
        deadline = time.time() + 120
        while alive_nodes(token_env, c.address, ns) < 2:
            assert time.time() < deadline, "the second node never joined"
            time.sleep(2)

        # without the token the cluster refuses the driver: one line, exit 2
        r = run([sys.executable, "-m", "sim", "run", env["CONFIG"], "--address", c.address,
                 "--out", tmp_path / "refused", "--quiet"], env, ns)
        assert r.returncode == 2 and "requires token authentication, set RAY_AUTH_MODE=token" in r.stderr
        assert len(r.stderr.splitlines()) == 1, r.stderr
        assert "Traceback" not in r.stderr and not (tmp_path / "refused").exists()

        r = bash(steps["driver"], env, ns)
        assert r.returncode == 0 and r.stderr == "", r.stderr[-3000:]  # --quiet: no Ray notices
        assert same(tables(tmp_path / "ref"), tables(tmp_path / "out" / "driver"))

        # a cluster already running on this machine (found through ray_current_cluster
        # under RAY_TMPDIR): `--address auto` joins it; no --address leaves it alone and
        # starts a private Ray (it used to fail with "num_cpus … must not be provided")
        found = dict(token_env, RAY_TMPDIR=str(c.base))
        assert (c.temp / "ray_current_cluster").exists()
        for extra_args, out in ((["--address", "auto"], "auto"), (["--workers", "1"], "private")):
            r = run([sys.executable, "-m", "sim", "run", env["CONFIG"], "--out",
                     tmp_path / "out" / out, "--quiet", *extra_args], found, ns)
            assert r.returncode == 0 and r.stderr == "", (out, r.stderr[-3000:])
            assert same(tables(tmp_path / "ref"), tables(tmp_path / "out" / out))
        assert alive_nodes(token_env, c.address, ns) == 2  # the private Ray was not this cluster

        r = bash(steps["job"], env, ns, timeout=600)
        assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-3000:])
        assert "4 shards run" in r.stdout, r.stdout[-3000:]
        assert same(tables(tmp_path / "ref"), tables(tmp_path / "out" / "job"))

        # every listening socket while a driver holds a task on each node
        marks = tmp_path / "marks"
        marks.mkdir()
        holder = subprocess.Popen([*inside(ns), sys.executable, "-c", HOLD, c.address, str(marks)],
                                  env=token_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True)
        try:
            deadline = time.time() + 180
            while len(list(marks.iterdir())) < 2:
                assert holder.poll() is None, holder.communicate()
                assert time.time() < deadline, "the held tasks never started"
                time.sleep(0.5)
            tasks = {int(m.name) for m in marks.iterdir()}
            r = run([sys.executable, "-c", LISTENING], env, ns)
            assert r.returncode == 0, r.stderr[-2000:]
            sockets = json.loads(r.stdout)
            outside = [(p.pid, p.name()) for p in cluster_processes(c.temp) if netns(p.pid) != link]
        finally:
            (marks / "release").touch()
            out, err = holder.communicate(timeout=120)
        assert holder.returncode == 0 and out.strip() == "2", err[-2000:]  # one task a node
        exposed = [s for s in sockets if s[2] not in LOOPBACK]
        assert exposed == [], f"listening beyond 127.0.0.1: {exposed}"
        ports = {s[3] for s in sockets}
        assert {c.gcs, c.dash, c.client, c.agents[0], c.agents[1]} <= ports, sockets
        pids = {s[0] for s in sockets}
        assert tasks | {holder.pid} <= pids, sockets  # the workers and the driver
        assert len({s[0] for s in sockets if s[1] == "raylet"}) == 2, sockets
        assert outside == [], f"processes of the cluster outside its namespace: {outside}"

        # the docs' stop recipe stops every process of the cluster, and nothing else
        r = bash(steps["stop"], env, ns)
        assert r.returncode == 0 and "stopped" in r.stdout, (r.stdout, r.stderr[-2000:])
        deadline = time.time() + 30
        while left := [(p.pid, p.name()) for p in in_namespace(link) if p.pid != ns]:
            assert time.time() < deadline, f"left running by the stop recipe: {left}"
            time.sleep(1)
    finally:
        if link is not None:
            kill([p for p in in_namespace(link) if p.pid != ns])
        kill(cluster_processes(c.temp))
        if ns is not None and holding(ns):
            kill([psutil.Process(ns)])
        shutil.rmtree(c.base, ignore_errors=True)


@pytest.mark.soak
@needs_cluster
def test_one_node_with_multi_node_mode_off_listens_on_loopback_only(tmp_path):
    """The docs' single-node way, on the host's network: RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0
    keeps the head's every socket on 127.0.0.1, a second node is refused, and a driver
    needs the same switch (without it Ray rewrites its 127.0.0.1)."""
    c = Cluster(tmp_path)
    env = dict(c.env, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0")
    try:
        r = c.start("head", env)
        assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
        r = c.start("node", env)
        assert r.returncode != 0 and "Multi-node Ray clusters are not supported" in r.stdout + r.stderr

        r = bash(c.steps["driver"], env)
        assert r.returncode == 0 and r.stderr == "", r.stderr[-3000:]
        assert same(tables(tmp_path / "ref"), tables(tmp_path / "out" / "driver"))
        if routable_address() not in (None, "127.0.0.1"):
            plain = {k: v for k, v in env.items() if k != "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"}
            r = run([sys.executable, "-m", "sim", "run", env["CONFIG"], "--address", c.address,
                     "--out", tmp_path / "rewritten", "--quiet", "--connect-timeout", 5],
                    dict(plain, RAY_AUTH_MODE="token"))
            assert r.returncode == 2 and "no Ray cluster answered within 5 s" in r.stderr, r.stderr

        procs = cluster_processes(c.temp)
        sockets = listening(procs)
        exposed = [s for s in sockets if s[2] not in LOOPBACK]
        assert exposed == [], f"listening beyond 127.0.0.1: {exposed}"
        assert {c.gcs, c.dash, c.client, c.agents[0]} <= {s[3] for s in sockets}, sockets

        r = bash(c.steps["stop"], env)
        assert r.returncode == 0 and "stopped" in r.stdout, (r.stdout, r.stderr[-2000:])
        _, alive = psutil.wait_procs(procs, timeout=30)
        assert alive == [], f"left running by the stop recipe: {alive}"
    finally:
        kill(cluster_processes(c.temp))
        shutil.rmtree(c.base, ignore_errors=True)


def test_the_cloud_cluster_config_passes_ray_launchers_checks():
    """docs/examples/cluster_aws.yaml as `ray up` reads it before calling AWS: Ray's AWS
    defaults filled in, Ray's schema, a known provider; every command parses as shell,
    and the parts docs/cluster.md promises are there (this Ray's `ray up` has no dry
    run, and a real one needs AWS)."""
    import yaml
    from ray.autoscaler._private.providers import _NODE_PROVIDERS
    from ray.autoscaler._private.util import prepare_config, validate_config

    text = CLOUD.read_text()
    raw = yaml.safe_load(text)
    config = prepare_config(copy.deepcopy(raw))
    validate_config(config)
    assert config["provider"]["type"] == "aws" and "aws" in _NODE_PROVIDERS
    assert config["provider"]["region"] and config["provider"]["cache_stopped_nodes"] is False
    assert config["head_node_type"] in config["available_node_types"]
    for node in config["available_node_types"].values():
        assert {"InstanceType", "ImageId"} <= set(node["node_config"]), node
    lists = ("initialization_commands", "setup_commands", "head_setup_commands",
             "worker_setup_commands", "head_start_ray_commands", "worker_start_ray_commands")
    for command in (cmd for key in lists for cmd in config[key]):
        r = subprocess.run(["bash", "-n", "-c", command], capture_output=True, text=True)
        assert r.returncode == 0, (command, r.stderr)

    setup = "\n".join(raw["setup_commands"])
    assert "chmod 600 ~/.ray/auth_token" in setup
    # a YAML `#` would cut the line: the profile line must reach ~/.bashrc whole
    assert re.search(r"RAY_AUTH_MODE=token .*' >> ~/\.bashrc", setup), setup
    assert "carcsim[cluster]" in setup and re.search(r'"ray\[default,client\]==[0-9.]+"', setup)
    assert raw["file_mounts"] == {"~/carcsim": ".", "~/.ray/auth_token": "~/.ray/auth_token"}
    starts = [cmd for key in lists[-2:] for cmd in raw[key] if "ray start" in cmd]
    assert len(starts) == 2 and all("RAY_AUTH_MODE=token ray start" in cmd for cmd in starts)
    assert "--dashboard-host=127.0.0.1" in starts[0] and "0.0.0.0" not in text

    doc = (ROOT / "docs" / "cluster.md").read_text()
    assert "ray up docs/examples/cluster_aws.yaml" in doc and "carcsim run cluster " in doc
    assert (ROOT / "sim" / "configs" / "cluster.toml").exists()
