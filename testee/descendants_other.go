//go:build unix && !linux

package testee

// Elsewhere than Linux conform finds no descendant that left the testee's
// process group: killing the group is all it does, and such a descendant
// outlives the testee (boundPipes keeps it from holding up the run).

func becomeSubreaper() {}

func startTime(pid int) uint64 { return 0 }

func killDescendants(leader int, tag string, since uint64) {}
