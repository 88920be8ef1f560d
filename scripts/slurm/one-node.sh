#!/usr/bin/env bash
# Starts a one-node Slurm cluster on this machine (Debian's slurm-wlm and munge), enough to
# run scripts/slurm/generate-array.sh for real and the live test
# `cargo test --release --test studio shard_cli::a_live_slurm_array` (docs/files.md).
# Needs root; writes /etc/slurm/slurm.conf (the node is this host, all its CPUs, one
# partition "debug"). Stop it with: pkill slurmd; pkill slurmctld; pkill munged
set -euo pipefail
if ! command -v slurmctld >/dev/null; then
    apt-get install -y -q slurm-wlm
fi
host=$(hostname)
cpus=$(nproc)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
chown munge:munge /run/munge
if [[ ! -s /etc/munge/munge.key ]]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
fi
cat >/etc/slurm/slurm.conf <<CONF
ClusterName=studio
SlurmctldHost=$host
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=/var/spool/slurmd
StateSaveLocation=/var/spool/slurmctld
SlurmUser=root
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
JobCompType=jobcomp/none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
grep -q "[[:space:]]$host\$" /etc/hosts || echo "127.0.0.1 $host" >>/etc/hosts
pgrep -x munged >/dev/null || su -s /bin/sh munge -c /usr/sbin/munged
pgrep -x slurmctld >/dev/null || /usr/sbin/slurmctld
pgrep -x slurmd >/dev/null || /usr/sbin/slurmd
for _ in $(seq 1 20); do
    if sinfo --noheader --states=idle,mix,alloc 2>/dev/null | grep -q .; then
        sinfo
        exit 0
    fi
    sleep 1
done
echo "one-node.sh: the node did not come up; see /var/log/slurm/" >&2
exit 1
