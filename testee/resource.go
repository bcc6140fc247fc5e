package testee

import "errors"

// ResourceError is the error of a request that conform could not make for
// want of its own resources: starting the testee failed because conform
// had no file descriptor left for the pipes (EMFILE, ENFILE) or no memory
// (ENOMEM). It is conform's failure, not the testee's, so it is never a
// *Failure, and it does not count towards Config.MaxStartFailures (issue
// 30: under `ulimit -n 64` with -j 30 it was reported as the testee's
// start-failed).
type ResourceError struct {
	What string // what conform was doing ("starting the testee")
	Err  error
	Hint string // the limit that was reached, when known ("the limit of open files is 64")
}

func (e *ResourceError) Error() string {
	s := "conform's own resources ran out " + e.What + ": " + e.Err.Error()
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *ResourceError) Unwrap() error { return e.Err }

// AsResourceError returns err as a *ResourceError when it says that this
// process ran out of a resource of its own (file descriptors, memory;
// errors of other calls than a testee's start too: the runner's own
// files), else nil. what says what the process was doing.
func AsResourceError(what string, err error) *ResourceError { return resourceError(what, err) }

// resourceError returns err as a *ResourceError when it says that conform
// itself ran out of a resource (ownResource), else nil.
func resourceError(what string, err error) *ResourceError {
	if err == nil {
		return nil
	}
	if re := (*ResourceError)(nil); errors.As(err, &re) {
		return re
	}
	hint, ok := ownResource(err)
	if !ok {
		return nil
	}
	return &ResourceError{What: what, Err: err, Hint: hint}
}
