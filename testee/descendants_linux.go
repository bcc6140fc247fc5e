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
// of its group that conform adopted. conform itself is never one.
//
// It walks the process tree down from conform instead of reading all of
// /proc (3.6 ms a testee on a quiet machine, the most of a one-shot
// request): when the leader has exited, as it has when this runs, every
// process it started is a descendant of conform, its orphans adopted by
// conform (a subreaper), so the candidates are conform's children (of
// every thread) and their descendants, found in /proc/PID/task/TID/children.
// Only processes as young as the leader can be its descendants; only the
// environments of conform's children that are not in the group are read.
func scan(leader int, tag string, since uint64) map[int]procInfo {
	if !haveChildren() {
		return scanAll(leader, tag, since)
	}
	self := os.Getpid()
	want := []byte(TagEnv + "=" + tag)
	found := map[int]procInfo{}
	var queue []int // found live processes whose children are still to list
	for _, pid := range children(self) {
		info, ok := readStat(pid)
		switch {
		case !ok || pid == self || info.start < since:
		case info.zombie:
			// A member of the group that conform adopted and that exited
			// by itself, to be reaped; never the leader.
			if info.pgrp == leader && pid != leader {
				found[pid] = info
			}
		case info.pgrp == leader || pid == leader || tagged(pid, want):
			found[pid] = info
			queue = append(queue, pid)
		}
	}
	for len(queue) > 0 {
		parent := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, pid := range children(parent) {
			if _, ok := found[pid]; ok {
				continue
			}
			if info, ok := readStat(pid); ok && !info.zombie && info.start >= since {
				found[pid] = info
				queue = append(queue, pid)
			}
		}
	}
	return found
}

// scanAll is scan by reading all of /proc, for a kernel without the
// children files (CONFIG_PROC_CHILDREN). (Only processes as young as the
// leader can be its descendants; only their environments are read.)
func scanAll(leader int, tag string, since uint64) map[int]procInfo {
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

// haveChildren reports whether the kernel lists a task's children
// (/proc/PID/task/TID/children), checked once.
var haveChildren = sync.OnceValue(func() bool {
	pid := strconv.Itoa(os.Getpid())
	_, err := os.Stat("/proc/" + pid + "/task/" + pid + "/children")
	return err == nil
})

// children lists the children of process pid: those of each of its threads
// (a child's parent is the thread that started it, or that adopted it).
func children(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, _ := os.ReadDir(dir)
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for f := range strings.FieldsSeq(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
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
