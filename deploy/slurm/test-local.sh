#!/bin/bash
# Run a 4-shard loadlab sweep on a single-node Slurm cluster started on
# this machine (as root, Debian): installs slurm-wlm and munge, starts
# munged, slurmctld and slurmd, submits the array and the merge job,
# waits, and compares the merged result with the one-process result
# byte for byte, for each configuration given (default: a consensus
# sweep and a codedload parameter sweep, whose runs are (point, run)
# pairs). Usage: sudo deploy/slurm/test-local.sh [config.json ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
WORK=$(mktemp -d /tmp/loadlab-slurm.XXXXXX)
chmod 755 "$WORK"
CONFIGS=("$@")
if [ ${#CONFIGS[@]} -eq 0 ]; then
	echo '{"sweep":"consensus","seed":42,"runs":16,"params":{"family":"cycle","size":8,"gamma":0.3,"traffic":"case 1","sigma":1,"steps":200,"burn":50}}' >"$WORK/consensus.json"
	echo '{"sweep":"codedload","seed":3,"runs":3,"params":{"points":[{"x":1,"topology":{"family":"torus","n":64},"model":{"files":30,"cache":2,"strategy":{"kind":"coded","ell":3}}},{"x":2,"topology":{"family":"rgg","n":100},"random":true,"runs":2,"model":{"files":30,"cache":2,"strategy":{"kind":"two-choice","radius":2}}}]}}' >"$WORK/codedload.json"
	CONFIGS=("$WORK/consensus.json" "$WORK/codedload.json")
fi
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge
fi
go build -o "$WORK/loadlab" ./cmd/loadlab

# munge: a key and the daemon
if [ ! -s /etc/munge/munge.key ]; then
	mkdir -p /etc/munge
	dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
chmod 400 /etc/munge/munge.key
pgrep -x munged >/dev/null || munged --force

# slurm: one node named after this host
HOST=$(hostname -s)
CPUS=$(nproc)
CONF=/etc/slurm/slurm.conf
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat >"$CONF" <<CONF
ClusterName=loadlab
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ReturnToService=2
MpiDefault=none
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
pgrep -x slurmctld >/dev/null || slurmctld
pgrep -x slurmd >/dev/null || slurmd
for _ in $(seq 30); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 1; done
scontrol update nodename="$HOST" state=resume 2>/dev/null || true

# one_sweep CONFIG: the array, the merge job after it, the comparison.
one_sweep() {
	local CONFIG=$1 name
	name=$(basename "$CONFIG" .json)
	local OUT=$WORK/$name
	export CONFIG OUTDIR=$OUT LOADLAB=$WORK/loadlab
	jid=$(sbatch --parsable --array=0-3 --chdir="$WORK" --output="$WORK/$name-shard-%a.log" --export=ALL "$ROOT/deploy/slurm/sweep.sbatch")
	mid=$(sbatch --parsable --dependency=afterok:"$jid" --chdir="$WORK" --output="$WORK/$name-merge.log" --export=ALL "$ROOT/deploy/slurm/merge.sbatch")
	echo "$name: array job $jid, merge job $mid"
	for _ in $(seq 170); do
		squeue -h -j "$jid,$mid" 2>/dev/null | grep -q . || break
		sleep 1
	done
	"$WORK/loadlab" sweep --config "$CONFIG" --direct --out "$WORK/$name-direct"
	if cmp "$OUT/result.csv" "$WORK/$name-direct.csv" && cmp "$OUT/result.json" "$WORK/$name-direct.json"; then
		echo "OK: $name: the merged Slurm result equals the one-process result ($WORK)"
	else
		echo "FAIL: $name: see $WORK" >&2
		cat "$WORK"/*.log >&2 || true
		exit 1
	fi
}
for c in "${CONFIGS[@]}"; do one_sweep "$c"; done
