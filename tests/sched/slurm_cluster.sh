#!/usr/bin/env bash
# A real Slurm cluster on this machine, in a private folder: munged,
# slurmctld and four `slurmd -N cnK` (Debian's slurmctld, slurmd,
# slurm-client, munge), each node declaring this machine's real CPU count so
# Slurm's task binding (task/affinity) binds to CPUs that exist. Inside real
# salloc/sbatch jobs it runs examples/slurm/map_and_launch.sh (tm-map
# --alloc-from-env, then srun with tmap's hostfile) on a program that
# prints where each task runs (its node and the CPUs it may use), and checks
# every task against tmap's rankfile: the node and the exact CPUs; and every
# rankfile CPU against the CPUs Slurm's controller says the job holds
# (`scontrol show job -d`, read here independently of tmap's libslurm).
# Scenarios (N = this machine's CPUs, the CPUs of each node): two whole
# nodes; the same launched by srun without its own binding, each task bound
# by tm-bind to the CPUs of tmap's binding file; a hybrid job (-c N, one rank per node); a shared node whose CPU 0
# another job holds; a three-node job with split CPUs; one group of a
# heterogeneous job; the README's sbatch example. Every daemon it started is
# stopped by its PID.
# Usage: tests/sched/slurm_cluster.sh BIN_DIR SOURCE_DIR
set -euo pipefail
bin=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in munged slurmctld slurmd salloc sbatch srun scontrol sinfo; do
  command -v "$tool" > /dev/null || fail "$tool not found (Debian: munge slurmctld slurmd slurm-client)"
done
[ "$(id -u)" = 0 ] || fail "slurmd launches tasks as their owner: run as root (as CI does)"
cpus=$(nproc)
[ "$cpus" -ge 2 ] || fail "the scenarios need at least 2 CPUs per node (this machine has $cpus)"

work=$(mktemp -d /tmp/tmap-slurm.XXXXXX)
chmod 700 "$work"
pid_files=()
stop() {
  local pid
  for file in "${pid_files[@]}"; do
    [ -s "$file" ] || continue
    pid=$(cat "$file")
    kill "$pid" 2> /dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2> /dev/null || true
  done
  rm -rf "$work"
}
trap stop EXIT

# munge, with its own key and socket.
mkdir -m 700 "$work/munge"
head -c 1024 /dev/urandom > "$work/munge/key"
chmod 400 "$work/munge/key"
pid_files+=("$work/munge/pid")
munged --force --socket="$work/munge/sock" --key-file="$work/munge/key" --log-file="$work/munge/log" \
  --pid-file="$work/munge/pid" --seed-file="$work/munge/seed"

# Slurm: ten ports (port .. port+9) picked at random below the kernel's
# ephemeral range (where an outgoing connection can hold one) and checked
# free; every file in $work.
free_ports() { # FIRST COUNT: whether each port binds on 127.0.0.1
  /usr/bin/python3 - "$1" "$2" << 'EOF'
import socket, sys
first, count = int(sys.argv[1]), int(sys.argv[2])
for p in range(first, first + count):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", p))
        except OSError:
            sys.exit(1)
EOF
}
ephemeral_low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2> /dev/null || echo 32768)
[ "$ephemeral_low" -gt 20100 ] || ephemeral_low=40000
port=
for _ in $(seq 50); do
  candidate=$((20000 + RANDOM % (ephemeral_low - 20000 - 10)))
  if free_ports "$candidate" 10; then port=$candidate; break; fi
done
[ -n "$port" ] || fail "no ten free ports found in 20000-$ephemeral_low"
mkdir -p "$work/state" "$work/log"
cat > "$work/slurm.conf" << EOF
ClusterName=tmaptest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool-%n
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd-%n.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
TopologyPlugin=topology/tree
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=cn[1-4] NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$cpus Port=[$((port + 2))-$((port + 5))] State=UNKNOWN
PartitionName=debug Nodes=cn[1-4] Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
# Its switch tree (topology/tree reads topology.conf beside slurm.conf):
# cn1 and cn2 on one leaf switch, cn3 and cn4 on another, a spine above.
cat > "$work/topology.conf" << EOF
SwitchName=leaf1 Nodes=cn[1-2]
SwitchName=leaf2 Nodes=cn[3-4]
SwitchName=spine Switches=leaf[1-2]
EOF
export SLURM_CONF=$work/slurm.conf
pid_files+=("$work/slurmctld.pid")
slurmctld -f "$SLURM_CONF"
for n in 1 2 3 4; do
  mkdir -p "$work/spool-cn$n"
  pid_files+=("$work/slurmd-cn$n.pid")
  slurmd -f "$SLURM_CONF" -N "cn$n"
done
wait_idle() { # SECONDS: until the four nodes are idle
  for _ in $(seq $(($1 * 2))); do
    [ "$(sinfo -h -o '%T %D' 2> /dev/null)" = "idle 4" ] && return 0
    sleep 0.5
  done
  return 1
}
# A slurmd whose first registration was lost (it can start before the
# controller listens) waits for the controller's next ping, minutes away:
# restart, once, every node that is not idle after 30 s.
if ! wait_idle 30; then
  for node in $(sinfo -h -N -o '%N %T' | awk '$2 != "idle" {print $1}'); do
    echo "restarting slurmd of $node ($(sinfo -h -n "$node" -o %T))"
    pid=$(cat "$work/slurmd-$node.pid" 2> /dev/null || true)
    if [ -n "$pid" ]; then
      kill "$pid" 2> /dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.2; done
    fi
    slurmd -f "$SLURM_CONF" -N "$node"
  done
  wait_idle 60 || fail "the four nodes did not come up: $(sinfo 2>&1; tail -n 5 "$work"/log/*.log)"
fi
echo "Slurm $(sinfo -V | cut -d' ' -f2): 4 nodes cn[1-4] of $cpus CPUs on this machine (port $port)"

# Each task prints: rank, node, the CPUs it may run on.
cat > "$work/task.sh" << 'EOF'
#!/bin/sh
echo "$SLURM_PROCID $SLURMD_NODENAME $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)"
EOF
chmod +x "$work/task.sh"
machine="tianhe3:1x1,nodes=8,cores=$cpus"

# check NAME: the tasks (NAME/tasks.out) ran where NAME/tmap.rankfile says,
# on CPUs the job holds (NAME/job.txt: scontrol show job -d).
check() {
  local dir=$work/$1
  /usr/bin/python3 - "$dir" "$source_dir/tests/sched" << 'EOF'
import re, sys
d = sys.argv[1]
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, sys.argv[2])
from cpu_lists import cpus
wrote = {}
for line in open(f"{d}/tmap.rankfile"):
    m = re.fullmatch(r"rank (\d+)=(\S+) slot=(\S+)\n?", line)
    assert m, f"rankfile line {line!r}"
    wrote[int(m[1])] = (m[2], cpus(m[3]))
ran = {}
for line in open(f"{d}/tasks.out"):
    rank, node, cpu_list = line.split()
    ran[int(rank)] = (node, cpus(cpu_list))
held = {}
for nodes, ids in re.findall(r"Nodes=(\S+) CPU_IDs=(\S+)", open(f"{d}/job.txt").read()):
    m = re.fullmatch(r"(\w+?)\[?([\d,\-]+)\]?", nodes)
    for n in (cpus(m[2]) if "[" in nodes else [None]):
        held[nodes if n is None else f"{m[1]}{n}"] = cpus(ids)
gave = ", ".join(f"{n}:{','.join(map(str, sorted(c)))}" for n, c in sorted(held.items()))
print(f"  Slurm gave {gave}")
print("  tmap wrote " + ", ".join(f"{r}->{h}:{','.join(map(str, sorted(c)))}" for r, (h, c) in sorted(wrote.items())))
assert sorted(ran) == sorted(wrote), f"tasks {sorted(ran)} but the rankfile has ranks {sorted(wrote)}"
for r, (host, c) in wrote.items():
    assert host in held and c <= held[host], f"rank {r}: tmap wrote {host} CPUs {sorted(c)}, not the job's ({held})"
    assert ran[r] == (host, c), f"rank {r} ran on {ran[r][0]} CPUs {sorted(ran[r][1])}, tmap wrote {host} {sorted(c)}"
print(f"  every task ran on the node and CPUs tmap wrote ({len(wrote)} ranks)")
EOF
}

# scenario NAME RANKS_AS_DIMS SALLOC_ARGS...: map_and_launch.sh in an salloc
# job (RANKS_AS_DIMS "-": NAME/traffic.mat is there already).
scenario() {
  local name=$1 dims=$2
  shift 2
  mkdir -p "$work/$name"
  [ "$dims" = - ] || "$bin/tm-gen" stencil2d --dims "$dims" --output "$work/$name/traffic.mat"
  echo "$name: salloc $*"
  timeout 120 salloc "$@" env TMAP_BIN="$bin" TMAP_TOPOLOGY="$machine" TMAP_STRATEGY="${TMAP_STRATEGY:-}" \
    TMAP_WORKDIR="$work/$name" \
    bash -c '"$0" "$1/traffic.mat" "$2" > "$1/tasks.out" && scontrol show job -d "$SLURM_JOB_ID" > "$1/job.txt"' \
    "$source_dir/examples/slurm/map_and_launch.sh" "$work/$name" "$work/task.sh" 2> "$work/$name/err" ||
    fail "$name: $(cat "$work/$name/err")"
  check "$name" || fail "$name: $(cat "$work/$name/err")"
}

# A job holding one CPU of a node, for the shared-node scenarios.
hold() {
  local id
  id=$(sbatch --parsable -w "$1" -n1 --output=/dev/null --wrap "sleep 600")
  for _ in $(seq 60); do [ "$(squeue -h -j "$id" -o %t)" = R ] && break; sleep 0.5; done
  echo "  (job $id holds $(scontrol show job -d "$id" | sed -n 's/.*Nodes=\(\S*\) CPU_IDs=\(\S*\).*/\1 CPU \2/p'))"
  echo "$id" >> "$work/holders"
}

scenario whole "2x$cpus" -N2 -n$((2 * cpus))

# tm-bind: srun with tmap's hostfile and --distribution=arbitrary, binding
# nothing itself (--cpu-bind=none); each task binds itself with tm-bind to
# the CPUs of tmap's binding file, which must be the rankfile's.
mkdir -p "$work/bind"
"$bin/tm-gen" stencil2d --dims "2x$cpus" --output "$work/bind/traffic.mat"
echo "bind: salloc -N2 -n$((2 * cpus)); srun --distribution=arbitrary --cpu-bind=none tm-bind"
timeout 120 salloc -N2 -n$((2 * cpus)) env TMAP_BIN="$bin" TMAP_TOPOLOGY="$machine" DIR="$work/bind" TASK="$work/task.sh" \
  bash -c 'set -e
    for format in binding hostfile rankfile; do
      "$TMAP_BIN/tm-map" -t "$TMAP_TOPOLOGY" -c "$DIR/traffic.mat" --alloc-from-env -q --format $format \
        --output "$DIR/tmap.$format"
    done
    SLURM_HOSTFILE="$DIR/tmap.hostfile" srun --distribution=arbitrary --cpu-bind=none -n "$(wc -l < "$DIR/tmap.hostfile")" \
      "$TMAP_BIN/tm-bind" "$DIR/tmap.binding" -- "$TASK" > "$DIR/tasks.out"
    scontrol show job -d "$SLURM_JOB_ID" > "$DIR/job.txt"' 2> "$work/bind/err" || fail "bind: $(cat "$work/bind/err")"
diff <(grep -v '^#' "$work/bind/tmap.binding") \
  <(sed -E 's/^rank ([0-9]+)=(\S+) slot=(\S+)$/\1 \2 \3/' "$work/bind/tmap.rankfile") > /dev/null ||
  fail "bind: the binding file is not the rankfile's placement: $(cat "$work/bind/tmap.binding")"
check bind || fail "bind: $(cat "$work/bind/err")"
scenario hybrid 2x1 -N2 -n2 -c "$cpus"

# Slurm's own machine (no TMAP_TOPOLOGY, so tm-map has no -t): its switch
# tree, asked of slurmctld, each node as hwloc sees this machine. Three
# groups of N ranks: each group talks most inside itself, groups 0 and 1
# much with each other, group 2 little with either. On cn1, cn3 and cn4
# the switch distances put groups 0 and 1 on the leaf of cn3 and cn4 (in
# order, group 0 would sit on cn1, across the spine from group 1).
echo "Slurm's switch tree: $(scontrol show topology | tr -s ' ' | tr '\n' ';')"
mkdir -p "$work/tree"
/usr/bin/python3 - "$work/tree/traffic.mat" "$cpus" << 'EOF'
import sys
path, c = sys.argv[1], int(sys.argv[2])
def w(a, b):
    ga, gb = a // c, b // c
    return 0 if a == b else 1000 if ga == gb else 100 if {ga, gb} == {0, 1} else 1
with open(path, "w") as f:
    for a in range(3 * c):
        f.write(" ".join(str(w(a, b)) for b in range(3 * c)) + "\n")
EOF
# groups_on_the_leaf RANKFILE: groups 0 and 1 on cn3 and cn4, group 2 on cn1.
groups_on_the_leaf() {
  /usr/bin/python3 - "$1" "$cpus" << 'EOF'
import re, sys
c = int(sys.argv[2])
host = {int(m[1]): m[2] for m in re.finditer(r"rank (\d+)=(\S+) slot=", open(sys.argv[1]).read())}
groups = [sorted({host[r] for r in range(g * c, (g + 1) * c)}) for g in range(3)]
print(f"  groups on {groups}")
assert sorted(groups[0] + groups[1]) == ["cn3", "cn4"] and groups[2] == ["cn1"], groups
EOF
}
# (best: the default's candidates miss this optimum on a node whose two
# PUs are 10 hops apart against 14 across a leaf: noted on issue #43.)
machine="" TMAP_STRATEGY=best scenario tree - -w "cn[1,3-4]" -n$((3 * cpus))
grep -q "no -t: the machine is Slurm's switch tree (from slurmctld (scontrol show topology)), each node as hwloc sees this one" \
  "$work/tree/err" || fail "tree: tm-map did not take Slurm's switch tree: $(cat "$work/tree/err")"
groups_on_the_leaf "$work/tree/tmap.rankfile" || fail "tree: the groups are not where the switches put them"
# Without its controller (a login node cut off from it: here a copy of the
# configuration naming a port nothing listens on), the same tree from the
# topology.conf beside slurm.conf.
mkdir -p "$work/offline"
sed -e "s/^SlurmctldPort=.*/SlurmctldPort=$((port + 9))/" "$work/slurm.conf" > "$work/offline/slurm.conf"
echo "MessageTimeout=2" >> "$work/offline/slurm.conf"
cp "$work/topology.conf" "$work/offline/"
SLURM_CONF=$work/offline/slurm.conf SLURM_JOB_NODELIST="cn[1,3-4]" SLURM_JOB_CPUS_PER_NODE="$cpus(x3)" \
  "$bin/tm-map" -c "$work/tree/traffic.mat" --alloc-from-env -s best --format rankfile \
  --output "$work/offline/tmap.rankfile" 2> "$work/offline/err" || fail "offline: $(cat "$work/offline/err")"
grep -q "Slurm's switch tree (from $work/offline/topology.conf)" "$work/offline/err" ||
  fail "offline: not the file's tree: $(cat "$work/offline/err")"
groups_on_the_leaf "$work/offline/tmap.rankfile" || fail "offline: the groups are not where the switches put them"

hold cn1
scenario shared 1x1 -w cn1 -n1
hold cn4
scenario split "1x$((2 * cpus))" -w "cn[1-2,4]" -n$((2 * cpus))
mkdir -p "$work/het"
"$bin/tm-gen" stencil2d --dims 2x1 --output "$work/het/traffic.mat"
echo "het: salloc -n2 : -n2, group 1 mapped and launched"
timeout 120 salloc -n2 : -n2 env TMAP_BIN="$bin" TMAP_TOPOLOGY="$machine" TMAP_WORKDIR="$work/het" TMAP_HET_GROUP=1 \
  bash -c '"$0" "$1/traffic.mat" "$2" > "$1/tasks.out" && scontrol show job -d "$SLURM_JOB_ID_HET_GROUP_1" > "$1/job.txt"' \
  "$source_dir/examples/slurm/map_and_launch.sh" "$work/het" "$work/task.sh" 2> "$work/het/err" ||
  fail "het: $(cat "$work/het/err")"
check het || fail "het: $(cat "$work/het/err")"
while read -r id; do scancel "$id"; done < "$work/holders"

# The README's batch example: sbatch runs a copy of the script from its
# spool folder; tm-map is found through TMAP_BIN.
mkdir -p "$work/sbatch"
"$bin/tm-gen" stencil2d --dims "2x$cpus" --output "$work/sbatch/traffic.mat"
echo "sbatch: sbatch -N2 -n$((2 * cpus)) examples/slurm/map_and_launch.sh traffic.mat task.sh"
# (--export=ALL: sbatch's --export=VAR=VALUE list would split the machine at its commas.)
(cd "$work/sbatch" && TMAP_BIN="$bin" TMAP_TOPOLOGY="$machine" timeout 120 sbatch --wait -N2 -n$((2 * cpus)) \
  --output=tasks.out --error=err --export=ALL "$source_dir/examples/slurm/map_and_launch.sh" traffic.mat \
  "$work/task.sh" > submitted) || fail "sbatch: $(cat "$work/sbatch/err" 2> /dev/null)"
# slurmctld keeps a finished job's record (MinJobAge, 300 s) with its CPU ids.
scontrol show job -d "$(cut -d' ' -f4 "$work/sbatch/submitted")" > "$work/sbatch/job.txt"
grep -q CPU_IDs "$work/sbatch/job.txt" || fail "sbatch: scontrol gave no CPU ids: $(cat "$work/sbatch/job.txt")"
check sbatch || fail "sbatch: $(cat "$work/sbatch/err")"
echo "slurm cluster: OK"
