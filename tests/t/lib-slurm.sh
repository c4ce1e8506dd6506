# SPDX-License-Identifier: GPL-3.0-or-later
# tests/t/lib-slurm.sh: a one-node Slurm cluster of a test's own, sourced
# after lib.sh.  slurm_start starts munged, slurmctld and slurmd on
# 127.0.0.1 with a munge key, socket, slurm.conf, state and spool of their
# own in $SL ($TRASH/slurm), ports from the test's pid, SLURM_CONF pointing
# there; slurm_stop stops each daemon by its pid file (also at exit); the
# system's Slurm and munge configuration is never read or touched.
# wait_jobs waits for a job array to leave the queue (accounting is off, so
# squeue is the only witness).  A test calls
#	if slurm_start; then ... else test_skip 'what' "$(cat "$SL/why")"; fi
SL=$TRASH/slurm

# slurm_start: munged, slurmctld and slurmd of this test's own, on 127.0.0.1;
# 0 when the node is idle, else 1 with the reason in $TRASH/slurm/why.
slurm_start() {
	for p in munged slurmctld slurmd sbatch squeue sinfo scancel; do
		command -v $p >/dev/null || [ -x /usr/sbin/$p ] ||
			{ echo "no $p (scripts/deps installs slurmctld, slurmd, slurm-client, munge)" >"$SL/why"; return 1; }
	done
	port=$((20000 + ($$ % 4000) * 2))
	host=$(hostname -s)
	# munged wants every directory above its socket searchable by all
	chmod go+x "$TRASH" &&
	mkdir -p "$SL/state" "$SL/spool" &&
	dd if=/dev/urandom of="$SL/munge.key" bs=1024 count=1 2>/dev/null &&
	chmod 400 "$SL/munge.key" &&
	cat >"$SL/slurm.conf" <<-EOC &&
	ClusterName=kcptest
	SlurmctldHost=$host(127.0.0.1)
	SlurmctldPort=$port
	SlurmdPort=$((port + 1))
	AuthType=auth/munge
	AuthInfo=socket=$SL/munge.sock
	CredType=cred/munge
	SlurmUser=$(id -un)
	SlurmdUser=$(id -un)
	StateSaveLocation=$SL/state
	SlurmdSpoolDir=$SL/spool
	SlurmctldPidFile=$SL/slurmctld.pid
	SlurmdPidFile=$SL/slurmd.pid
	SlurmctldLogFile=$SL/slurmctld.log
	SlurmdLogFile=$SL/slurmd.log
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	SelectType=select/cons_tres
	SelectTypeParameters=CR_CPU
	MpiDefault=none
	ReturnToService=2
	SchedulerParameters=sched_interval=1
	NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
	PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
	EOC
	SLURM_CONF=$SL/slurm.conf
	export SLURM_CONF
	PATH=$PATH:/usr/sbin
	munged --key-file="$SL/munge.key" --socket="$SL/munge.sock" --pid-file="$SL/munged.pid" \
		--log-file="$SL/munged.log" --seed-file="$SL/munged.seed" --num-threads=10 ||
		{ echo "munged did not start: $(tail -n 2 "$SL/munged.log" 2>/dev/null)" >"$SL/why"; return 1; }
	slurmctld -i && slurmd ||
		{ echo "slurmctld or slurmd did not start: $(tail -n 2 "$SL"/slurm*.log 2>/dev/null)" >"$SL/why"; return 1; }
	_i=0
	while [ "$(sinfo -h -o %t 2>/dev/null)" != idle ]; do
		_i=$((_i + 1))
		[ $_i -lt 60 ] || { echo "the node is not idle after 30 s: $(sinfo 2>&1 | tail -n 1)" >"$SL/why"; return 1; }
		sleep 0.5
	done
}

# slurm_stop: each daemon this test started, by its pid file, waiting for it
# to go (slurmctld saves its state first).
slurm_stop() {
	for d in slurmd slurmctld munged; do
		[ -s "$SL/$d.pid" ] || continue
		_pid=$(cat "$SL/$d.pid")
		rm -f "$SL/$d.pid"
		kill "$_pid" 2>/dev/null || continue
		_i=0
		while [ -e "/proc/$_pid" ] && [ "$(cut -d' ' -f3 "/proc/$_pid/stat" 2>/dev/null)" != Z ]; do
			_i=$((_i + 1))
			[ $_i -lt 100 ] || { kill -9 "$_pid" 2>/dev/null; break; }
			sleep 0.1
		done
	done
	return 0
}

# wait_jobs ID: until squeue has no task of job ID (at most 900 s).
wait_jobs() {
	_i=0
	while [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; do
		_i=$((_i + 1))
		[ $_i -lt 4500 ] || { echo "job $1 still queued after 900 s"; squeue; return 1; }
		sleep 0.2
	done
}

mkdir -p "$SL"
trap slurm_stop EXIT
