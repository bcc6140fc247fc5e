package harness

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A run's inputs directory is named conform-inputs-PID-RANDOM, PID the
// run's process ID, and holds ownerFile, which the run keeps open and
// locked (an advisory lock: flock on Unix, LockFileEx on Windows) until it
// removes the directory. A run killed before it could remove its
// directory (SIGKILL, a crash, the machine's own end) leaves it behind;
// the system drops the lock with the process. RemoveStaleInputs, called
// as each run starts, removes such directories: those whose process is gone
// and whose owner file no process holds locked. Both are asked, so that a
// live run's directory is never removed: not when its PID is that of a
// process another PID namespace does not see (the lock says it is held),
// nor when its testee removed or replaced the owner file (its PID is
// alive). A directory named after conform's own PID is judged by the lock
// alone: Windows gives PIDs out again at once, and under wine a new run
// often has the PID of the run that was killed before it. A directory without an owner file (a run killed between making
// it and locking it) is stale once its process is gone and it is a minute
// old; directories of conform versions before these names
// (conform-inputs-RANDOM) are left alone.

// inputsPrefix begins the name of every run's inputs directory.
const inputsPrefix = "conform-inputs-"

// ownerFile is the file a run holds locked in its inputs directory.
const ownerFile = ".conform-run"

// unlockedGrace is how old a directory without an owner file must be to
// be taken as stale.
const unlockedGrace = time.Minute

// claimDir creates ownerFile in the run's new directory, writes the run's
// PID into it and locks it; the run keeps it open until it removes the
// directory.
func claimDir(root *os.Root) (*os.File, error) {
	f, err := root.OpenFile(ownerFile, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if _, err := f.WriteString(strconv.Itoa(os.Getpid()) + "\n"); err != nil {
		f.Close()
		return nil, err
	}
	if locked, err := tryLock(f); !locked {
		f.Close()
		if err == nil {
			err = errors.New("its owner file is locked by another process")
		}
		return nil, err
	}
	return f, nil
}

// RemoveStaleInputs removes from dir (os.TempDir(), where runs make their
// inputs directories) the inputs directories of runs that are gone, and
// returns the paths it removed and the first error met removing one.
func RemoveStaleInputs(dir string) (removed []string, err error) {
	ents, rerr := os.ReadDir(dir)
	if rerr != nil {
		return nil, nil // no such directory: nothing to clean
	}
	for _, e := range ents {
		pid, ok := inputsOwner(e.Name())
		if !ok || !e.IsDir() { // IsDir: a link is not followed
			continue
		}
		p := filepath.Join(dir, e.Name())
		if !staleInputs(p, pid) {
			continue
		}
		if rmErr := removeTree(p); rmErr != nil {
			if err == nil {
				err = rmErr
			}
			continue
		}
		removed = append(removed, p)
	}
	return removed, err
}

// inputsOwner is the PID in an inputs directory's name.
func inputsOwner(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, inputsPrefix)
	if !ok {
		return 0, false
	}
	num, random, ok := strings.Cut(rest, "-")
	if !ok || random == "" || num == "" || strings.TrimLeft(num, "0123456789") != "" {
		return 0, false
	}
	pid, err := strconv.Atoi(num)
	return pid, err == nil && pid > 0
}

// staleInputs reports whether the inputs directory p, named after process
// pid, belongs to a run that is gone.
func staleInputs(p string, pid int) bool {
	// This process's own PID may name a directory of an earlier process
	// (Windows gives a PID out again at once): the lock alone tells, as
	// this process's own live directories hold theirs.
	if pid != os.Getpid() && processAlive(pid) {
		return false
	}
	owner := filepath.Join(p, ownerFile)
	fi, err := os.Lstat(owner)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		di, err := os.Lstat(p)
		return err == nil && time.Since(di.ModTime()) >= unlockedGrace
	case err != nil || !fi.Mode().IsRegular():
		return false
	}
	f, err := os.OpenFile(owner, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	locked, _ := tryLock(f)
	return locked // ours now: no process held it (closing f unlocks it)
}
