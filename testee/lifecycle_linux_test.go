//go:build linux

package testee

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
)

// killsDetached checks that process pid, a testee's descendant that left
// its process group, is gone within 2 s: killed and reaped, not even a
// zombie (Linux: descendants_linux.go).
func killsDetached(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); os.IsNotExist(err) {
			return
		}
	}
	state := "alive"
	if !alive(pid) {
		state = "a zombie"
	}
	t.Errorf("descendant %d still %s", pid, state)
}

// Zombies: a descendant adopted while the testee runs that exits by itself
// is reaped when the testee exits, as are the descendants killed then; no
// child of the test process is left a zombie, and conform's own children
// keep their wait statuses (every adapter here gets its exit status).
func TestAdoptedZombiesReaped(t *testing.T) {
	a := newPersistent(t, "misbehave", shortTimeout)
	mustEcho(t, a, 1, nil)
	// An orphan in the testee's group that exits at once: a zombie child of
	// the test process (a subreaper) until the testee exits.
	if _, err := a.Do(context.Background(), Request{ID: 2, Op: "test.orphan-quick"}); err != nil {
		t.Fatal(err)
	}
	_, err := a.Do(context.Background(), Request{ID: 3, Op: "test.crash"})
	asFailure(t, err, Exited, "exit status 3")
	if z := zombieChildren(); len(z) > 0 {
		t.Errorf("zombie children left: %v", z)
	}
}

// zombieChildren lists the zombie children of this process.
func zombieChildren() []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if info, ok := readStat(pid); ok && info.zombie && info.ppid == os.Getpid() {
			out = append(out, pid)
		}
	}
	return out
}

// Walking the process tree down from conform finds what reading all of
// /proc finds: the testee, a member of its group, a descendant in a session
// of its own, and that one's child without the tag.
func TestScanFindsWhatScanAllFinds(t *testing.T) {
	if !haveChildren() {
		t.Fatal("this kernel lists no children in /proc/PID/task/TID/children; scan falls back to scanAll")
	}
	a := newPersistent(t, "misbehave", nil)
	var pids []int
	for i, op := range []string{"test.grandchild", "test.detached", "test.detached-chain"} {
		resp, err := a.Do(context.Background(), Request{ID: int64(i + 1), Op: op})
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ PID int }
		json.Unmarshal(resp.Result, &r)
		pids = append(pids, r.PID)
	}
	p := a.cur.Load()
	walk, all := scan(p.pid, p.tag, p.started), scanAll(p.pid, p.tag, p.started)
	if !maps.Equal(walk, all) {
		t.Errorf("the walk found %v; reading all of /proc %v", slices.Sorted(maps.Keys(walk)), slices.Sorted(maps.Keys(all)))
	}
	for _, pid := range append(pids, p.pid) {
		if _, ok := walk[pid]; !ok {
			t.Errorf("process %d not found (found %v)", pid, slices.Sorted(maps.Keys(walk)))
		}
	}
}
