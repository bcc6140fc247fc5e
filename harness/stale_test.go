package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// Issue 30, item 18: a run killed before it could remove its inputs
// directory leaves it behind; the next run removes it (RemoveStaleInputs),
// and never a live run's. Each case lays out one directory as a run would
// have left it and says whether it must go.
func TestRemoveStaleInputs(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where this process's own run makes its directory
	t.Setenv("TMP", tmp)    // the same on Windows

	// A process that is gone: its PID names the directories of a killed run.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := cmd.Process.Pid
	if processAlive(dead) {
		t.Skipf("process %d was reused at once", dead)
	}
	// A live process that is not this one.
	sleeper := exec.Command(os.Args[0], "-test.run=^TestSleepForever$")
	sleeper.Env = append(os.Environ(), "HARNESS_SLEEP_FOREVER=1")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { sleeper.Process.Kill(); sleeper.Wait() }()
	live := sleeper.Process.Pid

	// A run of this process, live: its directory made as a run makes it.
	own, ownDir := runDir(t)
	defer own.Remove()

	var held []*os.File // locks standing for live runs the PID does not show
	defer func() {
		for _, f := range held {
			f.Close()
		}
	}()
	old := time.Now().Add(-2 * unlockedGrace)
	type layout struct {
		name    string
		pid     int
		owner   string // "locked", "unlocked", "" (none)
		old     bool   // made more than unlockedGrace ago
		hostile bool   // the testee took the write permissions away
		gone    bool   // must be removed
	}
	cases := []layout{
		{name: "dead run, owner file unlocked", pid: dead, owner: "unlocked", gone: true},
		{name: "dead run, made read-only by its testee", pid: dead, owner: "unlocked", hostile: true, gone: true},
		{name: "PID gone but the lock held (a run another PID namespace hides)", pid: dead, owner: "locked"},
		{name: "live process, owner file unlocked (its testee replaced it)", pid: live, owner: "unlocked"},
		{name: "live process, no owner file", pid: live, old: true},
		{name: "dead run killed before it locked, fresh", pid: dead},
		{name: "dead run killed before it locked, a minute old", pid: dead, old: true, gone: true},
		{name: "this process's PID, left by an earlier process (PIDs reused)", pid: os.Getpid(), owner: "unlocked", gone: true},
		{name: "this process's PID, locked (a run of this process)", pid: os.Getpid(), owner: "locked"},
	}
	dirs := map[string]string{}
	for i, c := range cases {
		dir := filepath.Join(tmp, inputsPrefix+strconv.Itoa(c.pid)+"-case"+strconv.Itoa(i))
		if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "1-input"), []byte("input"), 0o400); err != nil {
			t.Fatal(err)
		}
		if c.owner != "" {
			f, err := os.OpenFile(filepath.Join(dir, ownerFile), os.O_RDWR|os.O_CREATE, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			if c.owner == "locked" {
				if ok, err := tryLock(f); !ok {
					t.Fatal("locking", err)
				}
				held = append(held, f)
			} else {
				f.Close()
			}
		}
		if c.hostile {
			os.Chmod(filepath.Join(dir, "sub"), 0o500)
			os.Chmod(dir, 0o500)
		}
		if c.old {
			os.Chtimes(dir, old, old)
		}
		dirs[c.name] = dir
	}
	// Not a run's directory at all: older conform's name, and a link.
	oldName := filepath.Join(tmp, inputsPrefix+"123456789")
	os.Mkdir(oldName, 0o700)
	target := t.TempDir()
	os.WriteFile(filepath.Join(target, "keep"), nil, 0o600)
	link := filepath.Join(tmp, inputsPrefix+strconv.Itoa(dead)+"-link")
	linked := os.Symlink(target, link) == nil

	removed, err := RemoveStaleInputs(tmp)
	if err != nil {
		t.Errorf("RemoveStaleInputs: %v", err)
	}
	for _, c := range cases {
		dir := dirs[c.name]
		_, serr := os.Lstat(dir)
		switch {
		case c.gone && serr == nil:
			t.Errorf("%s: %s left in place", c.name, filepath.Base(dir))
		case !c.gone && serr != nil:
			t.Errorf("%s: %s removed", c.name, filepath.Base(dir))
		case c.gone && !slices.Contains(removed, dir):
			t.Errorf("%s: not listed among the removed %v", c.name, removed)
		}
	}
	if _, err := os.Stat(filepath.Join(ownDir, ownerFile)); err != nil {
		t.Errorf("this process's own run lost its directory: %v", err)
	}
	if _, err := os.Stat(oldName); err != nil {
		t.Errorf("a directory of an older conform was removed")
	}
	if _, err := os.Stat(filepath.Join(target, "keep")); linked && err != nil {
		t.Errorf("a link was followed: %v", err)
	}
	if len(removed) != 4 {
		t.Errorf("removed %d directories, want 4: %v", len(removed), removed)
	}
	for _, c := range cases {
		os.Chmod(dirs[c.name], 0o700)
	}
}

// runDir makes a run's inputs directory, as a run's first recipe input
// does.
func runDir(t *testing.T) (*InputFiles, string) {
	t.Helper()
	f := NewInputFiles()
	f.mu.Lock()
	_, dir, err := f.openDir()
	f.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	return f, dir
}

// TestSleepForever is the live process of TestRemoveStaleInputs.
func TestSleepForever(t *testing.T) {
	if os.Getenv("HARNESS_SLEEP_FOREVER") == "" {
		t.Skip("a helper process")
	}
	time.Sleep(time.Hour)
}

// A run's directory is named after its process and holds its locked owner
// file until Remove; after Remove nothing of it is left.
func TestInputsDirOwned(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("TMP", tmp)
	f, dir := runDir(t)
	if pid, ok := inputsOwner(filepath.Base(dir)); !ok || pid != os.Getpid() {
		t.Errorf("directory %s is not named after process %d", dir, os.Getpid())
	}
	other, err := os.OpenFile(filepath.Join(dir, ownerFile), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := tryLock(other); ok {
		t.Errorf("the owner file is not locked while the run lives")
	}
	other.Close()
	if err := f.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); err == nil {
		t.Errorf("%s left after Remove", dir)
	}
}
