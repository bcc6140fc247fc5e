package testee

import (
	"os"
	"strconv"
	"sync/atomic"
	"time"
)

// The testee's lifecycle beyond its own process (docs/PROTOCOL.md, "The
// lifecycle, exactly"): conform notices the testee's exit by its wait
// status, not by its standard output, and when it exits, fails, is
// restarted or the run ends, kills what it started (killTree). On Unix the
// testee itself and its process group go first (kill, proc_unix.go); a
// descendant that left the group (setsid) is found by the tag in its
// environment and by its parent links where the platform allows
// (descendants_linux.go), and elsewhere only outlives the testee without
// holding up the run: once the testee has exited, its pipes are given
// exitGrace more, then read and written no longer. On Windows the testee
// and everything it starts run in a Job Object of their own, which is
// terminated as a whole (proc_windows.go): nothing leaves it.

// TagEnv is the environment variable conform sets for each testee process
// it starts, a value unique to that process; the testee's descendants
// inherit it, which is how conform finds those that left its process group.
// A testee must not rely on it.
const TagEnv = "CONFORM_TESTEE_TAG"

// exitGrace is how long the pipes of a testee that has exited stay open for
// what it wrote before it exited, when a descendant keeps them open.
const exitGrace = 250 * time.Millisecond

var tagSeq atomic.Uint64

// newTag is a tag no other testee process of this run has.
func newTag() string {
	return strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(tagSeq.Add(1), 10)
}

// withTag returns env (nil: conform's own environment) with TagEnv set to
// tag, an inherited one dropped.
func withTag(env []string, tag string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if len(kv) > len(TagEnv) && kv[:len(TagEnv)+1] == TagEnv+"=" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, TagEnv+"="+tag)
}

// afterExit runs in the reaper once the testee has been waited for: it
// kills what is left of what the testee started, then bounds the pipes,
// which a descendant that escaped could still hold open. (Do sets its own
// deadlines and then looks at exited, so that this bound is never lost.)
func (p *proc) afterExit() {
	p.killTree()
	p.boundPipes()
}

// boundPipes makes reads and writes on the testee's pipes end within
// exitGrace: after its exit, nothing it wrote can still be on the way.
func (p *proc) boundPipes() {
	d := time.Now().Add(exitGrace)
	p.stdout.SetReadDeadline(d)
	p.stdin.SetWriteDeadline(d)
}
