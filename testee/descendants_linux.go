//go:build linux

package testee

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux conform makes itself a child subreaper (prctl
// PR_SET_CHILD_SUBREAPER) when it starts its first testee: a descendant
// orphaned by the testee's exit is then adopted by conform, not by init, so
// its parent links still lead to conform and conform can reap it once it is
// killed. This holds for the whole conform process; it reaps only processes
// it found to be a testee's descendants and killed, each by its pid (never
// wait(-1)), so that the wait status of any other child of the process,
// a testee leader included, stays with its own waiter.

var subreaper sync.Once

// becomeSubreaper is called before each testee starts.
func becomeSubreaper() {
	subreaper.Do(func() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

// procInfo is what /proc/PID/stat says of a process.
type procInfo struct {
	ppid, pgrp int
	zombie     bool
	start      uint64 // start time in clock ticks since boot, to tell a reused pid apart
}

func readStat(pid int) (procInfo, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	// pid (comm) state ppid pgrp session ... field 22 starttime; comm may
	// hold anything, so fields are counted after its last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procInfo{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return procInfo{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	pgrp, _ := strconv.Atoi(f[2])
	start, _ := strconv.ParseUint(f[19], 10, 64)
	return procInfo{ppid: ppid, pgrp: pgrp, zombie: f[0] == "Z", start: start}, true
}

// tagged reports whether process pid has TagEnv=tag in its environment.
func tagged(pid int, want []byte) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for kv := range bytes.SplitSeq(b, []byte{0}) {
		if bytes.Equal(kv, want) {
			return true
		}
	}
	return false
}

// scan lists the live processes that belong to the testee leader with tag,
// started at since or later: members of its process group, processes
// carrying its tag, and their descendants by parent links; and the zombies
// of its group that conform adopted. conform itself is never one. (Only processes as young as the leader can be its
// descendants; only their environments are read.)
func scan(leader int, tag string, since uint64) map[int]procInfo {
	self := os.Getpid()
	want := []byte(TagEnv + "=" + tag)
	all := map[int]procInfo{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		if info, ok := readStat(pid); ok {
			all[pid] = info
		}
	}
	found := map[int]procInfo{}
	for pid, info := range all {
		switch {
		case info.start < since:
		case info.zombie:
			// A member of the group that conform adopted and that exited
			// by itself, to be reaped; never the leader.
			if info.pgrp == leader && info.ppid == self && pid != leader {
				found[pid] = info
			}
		case info.pgrp == leader || pid == leader || tagged(pid, want):
			found[pid] = info
		}
	}
	for grew := true; grew; {
		grew = false
		for pid, info := range all {
			if _, ok := found[pid]; ok || info.zombie || info.start < since {
				continue
			}
			if _, ok := found[info.ppid]; ok {
				found[pid], grew = info, true
			}
		}
	}
	return found
}

// startTime is the start time of process pid, for killDescendants; 0 when
// it cannot be read.
func startTime(pid int) uint64 {
	info, _ := readStat(pid)
	return info.start
}

// killDescendants kills every process that belongs to the testee leader
// with tag and started at since or later (startTime of the leader), again
// until none is left (a process may fork while it is being killed), then
// reaps those conform adopted. It gives up after a second.
func killDescendants(leader int, tag string, since uint64) {
	self := os.Getpid()
	killed := map[int]procInfo{}
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		found := scan(leader, tag, since)
		delete(found, leader) // the leader is its own waiter's to reap
		live := 0
		for pid, info := range found {
			killed[pid] = info
			if !info.zombie {
				syscall.Kill(pid, syscall.SIGKILL)
				live++
			}
		}
		if live == 0 {
			break
		}
	}
	// Reap what was killed and is (or becomes, its parent killed too) a
	// zombie child of conform; leave the others to their parents.
	for len(killed) > 0 && time.Now().Before(deadline) {
		for pid, was := range killed {
			info, ok := readStat(pid)
			switch {
			case !ok || info.start != was.start:
				delete(killed, pid) // gone (reaped by its parent)
			case info.zombie && info.ppid == self:
				var ws syscall.WaitStatus
				if n, _ := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); n == pid {
					delete(killed, pid)
				}
			case info.zombie:
				if _, dying := killed[info.ppid]; !dying {
					delete(killed, pid) // its live parent's to reap (init's without a subreaper)
				}
			}
		}
		if len(killed) > 0 {
			time.Sleep(2 * time.Millisecond)
		}
	}
}
